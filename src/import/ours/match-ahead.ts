// Our JSONL read, and partly compared, on a thread of its own (match-thread.ts): the import gets
// the lines the thread did not settle as records, and the settled ones as a count (SettledLines).
// With the compiled thread and a register in a SQLite file or on PostgreSQL; elsewhere (an
// in-memory register, a TypeScript test runner) the import reads and compares every line itself.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { THREAD_EXEC_ARGV } from '../../core/thread-exec-argv.js';
import { Wakeup } from '../../core/wakeup.js';
import type { ImportRecord, SettledLines } from '../../store/import-types.js';
import { readErrorOf } from '../open-data/read-messages.js';
import { JsonlRecord } from './jsonl-record.js';
import { type MatchMessage, type MatchMode, type MatchRegister, SHARED, type MatchThreadData } from './match-messages.js';

const THREAD = new URL('./match-thread.js', import.meta.url);
/**
 * The thread's heap: a batch's lines and the records compared with them, most dying young. A batch
 * waiting for PostgreSQL's answer outlives a few scavenges and is promoted: with 32 MB of old
 * space the thread collected it in full again and again (1.5 of its 4.8 CPU-seconds on 200,000
 * lines; 0.4 with 64), for the same peak RSS.
 */
const THREAD_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 32 };

let threadsAlive = 0;

/** Matching threads started and not yet ended, in this process. */
export function matchingThreads(): number {
  return threadsAlive;
}

export interface MatchedAhead {
  records: AsyncGenerator<ImportRecord[] | SettledLines>;
  /** ImportOptions.onLocked: the thread may now take its snapshot and settle lines. */
  locked(): void;
  /** Stops the thread, whether or not the lines were taken to the end. */
  close(): Promise<void>;
}

export function canMatchAhead(): boolean {
  return existsSync(fileURLToPath(THREAD));
}

export function matchAhead(filePath: string, register: MatchRegister, opts: { batchSize: number; mode?: MatchMode }): MatchedAhead {
  const memory = new SharedArrayBuffer(SHARED.words * 4);
  const shared = new Int32Array(memory);
  const data: MatchThreadData = { filePath, register, batchSize: opts.batchSize, mode: opts.mode ?? 'balanced', shared: memory };
  const worker = new Worker(THREAD, { workerData: data, execArgv: THREAD_EXEC_ARGV, resourceLimits: THREAD_HEAP });
  const queue: MatchMessage[] = [];
  let ended = false;
  let failure: Error | null = null;
  const arrived = new Wakeup();
  const notify = () => arrived.notify();
  worker.on('message', (m: MatchMessage) => {
    if (m.type === 'end') ended = true;
    queue.push(m);
    notify();
  });
  worker.on('error', (e) => {
    failure ??= e;
    notify();
  });
  threadsAlive++;
  worker.on('exit', (code) => {
    threadsAlive--;
    if (!ended) failure ??= new Error(`the thread reading the file stopped (exit code ${code})`);
    notify();
  });
  const close = async () => {
    if (!ended || failure) await worker.terminate();
  };

  async function* records(): AsyncGenerator<ImportRecord[] | SettledLines> {
    try {
      for (;;) {
        const m = queue.shift();
        if (m === undefined) {
          if (failure) throw failure;
          await arrived.wait();
          continue;
        }
        if (m.type === 'end') return;
        if (m.type === 'error') throw readErrorOf(m.error);
        Atomics.add(shared, SHARED.taken, 1);
        Atomics.notify(shared, SHARED.taken);
        if (m.settled > 0) yield { settled: true, length: m.settled };
        if (m.texts.length > 0) yield m.texts.map((text, i) => new JsonlRecord(m.lines[i], text));
      }
    } finally {
      await close();
    }
  }

  return {
    records: records(),
    locked: () => {
      Atomics.store(shared, SHARED.locked, 1);
    },
    close,
  };
}
