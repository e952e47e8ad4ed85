// The batches of an open-data file's lines (classify-lines.ts) for an import: read, decoded and
// fingerprinted on a thread of their own (read-thread.ts) while the importing thread compares and
// writes, on the machine's second core. Without the compiled thread (a TypeScript test runner) the
// same batches are made on this thread, between the import's.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { THREAD_EXEC_ARGV } from '../../core/thread-exec-argv.js';
import { Wakeup } from '../../core/wakeup.js';
import { openSourceFile } from '../source/open-file.js';
import { classifyLines, type ClassifyOptions, type LineBatch } from './classify-lines.js';
import { BufferPool } from './buffer-pool.js';
import { type ReadMessage, readErrorOf, type TakenMessage } from './read-messages.js';

const THREAD = new URL('./read-thread.js', import.meta.url);
/**
 * The thread's heap: its garbage is each line's text, which dies young; batches are in buffers
 * outside it. This memory is the importer's (under 300 MB in all).
 */
const THREAD_HEAP = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 };

let threadsAlive = 0;

/** Reading threads started and not yet ended, in this process. */
export function readingThreads(): number {
  return threadsAlive;
}

export interface LinesAhead {
  /** Uncompressed size of the file, for progress. */
  totalBytes: number;
  /** Uncompressed bytes read up to the last batch taken. */
  bytesRead(): number;
  batches: AsyncGenerator<LineBatch>;
  /** A batch's memory, once the import is done with it, for a later batch. */
  giveBack(b: LineBatch): void;
  /** Stops reading, whether or not the batches were taken to the end. */
  close(): Promise<void>;
}

/** Opens the file (its errors thrown here, before any batch) and reads it ahead. */
export async function readLinesAhead(path: string, opts: ClassifyOptions): Promise<LinesAhead> {
  let taken = 0;
  const track = async function* (batches: AsyncIterable<LineBatch>): AsyncGenerator<LineBatch> {
    for await (const b of batches) {
      taken = b.bytesRead;
      yield b;
    }
  };
  if (!existsSync(fileURLToPath(THREAD))) {
    const file = await openSourceFile(path);
    const pool = new BufferPool();
    return {
      totalBytes: file.totalBytes,
      bytesRead: () => taken,
      batches: track(classifyLines(file.stream, opts, (bytes) => pool.take(bytes))),
      giveBack: (b) => pool.give(b.buffer),
      close: async () => void file.stream.destroy(),
    };
  }
  const reader = new ThreadReader(path, opts);
  const totalBytes = await reader.started;
  return { totalBytes, bytesRead: () => taken, batches: track(reader.batches()), giveBack: (b) => reader.giveBack(b), close: () => reader.close() };
}

class ThreadReader {
  readonly started: Promise<number>;
  private readonly worker: Worker;
  private readonly queue: LineBatch[] = [];
  private ended = false;
  private failure: Error | null = null;
  private readonly arrived = new Wakeup();

  constructor(path: string, opts: ClassifyOptions) {
    let start!: (totalBytes: number) => void;
    let fail!: (e: Error) => void;
    this.started = new Promise((resolve, reject) => {
      start = resolve;
      fail = reject;
    });
    this.worker = new Worker(THREAD, {
      workerData: { path, ...opts },
      execArgv: THREAD_EXEC_ARGV,
      resourceLimits: THREAD_HEAP,
    });
    const failed = (e: Error) => {
      this.failure ??= e;
      fail(e);
      this.notify();
    };
    this.worker.on('message', (m: ReadMessage) => {
      if (m.type === 'start') start(m.totalBytes);
      else if (m.type === 'batch') this.queue.push(m.batch);
      else if (m.type === 'end') this.ended = true;
      else failed(readErrorOf(m.error));
      this.notify();
    });
    this.worker.on('error', failed);
    threadsAlive++;
    this.worker.on('exit', (code) => {
      threadsAlive--;
      if (!this.ended) failed(new Error(`the thread reading the file stopped (exit code ${code})`));
    });
  }

  /** The batches in order; a failure of the thread after the batches it handed over. */
  async *batches(): AsyncGenerator<LineBatch> {
    try {
      for (;;) {
        const next = this.queue.shift();
        if (next) {
          this.post({ type: 'taken' });
          yield next;
        } else if (this.failure) {
          throw this.failure;
        } else if (this.ended) {
          return;
        } else {
          await this.arrived.wait();
        }
      }
    } finally {
      // Stopped early (an error, --strict): the thread is not left reading.
      await this.close();
    }
  }

  async close(): Promise<void> {
    if (!this.ended || this.failure) await this.worker.terminate();
  }

  giveBack(b: LineBatch): void {
    if (!this.ended) this.post({ type: 'free', buffer: b.buffer }, [b.buffer]);
  }

  private post(m: TakenMessage, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(m, transfer);
  }

  private notify(): void {
    this.arrived.notify();
  }
}
