// Where an export run gets its encoded rows from, in id order, a slice at a time:
// - inline: the store's stream on this thread (small exports, and tests running from sources);
// - threads: worker threads that each read and encode slices of the register by row number
//   over their own read-only connection, reassembled here in order (large exports).
// Either way at most a few slices are in memory at once.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Company } from '../core/company.js';
import type { SearchFilters } from '../core/search-params.js';
import type { ExportFormat } from '../core/values.js';
import { Wakeup } from '../core/wakeup.js';
import type { Store, StoreLocation } from '../store/store.js';
import { encodeSlice, type EncodedSlice, type EncoderOptions, type RowEncoder } from './encoders.js';

export async function* inlineSource(store: Store, filters: SearchFilters, encoder: RowEncoder, batchRows: number): AsyncGenerator<EncodedSlice> {
  let batch: Company[] = [];
  for await (const company of store.companies.stream(filters, { batchSize: batchRows })) {
    batch.push(company);
    if (batch.length === batchRows) {
      yield encodeSlice(batch, encoder);
      batch = [];
    }
  }
  if (batch.length > 0) yield encodeSlice(batch, encoder);
}

/** What an encoding thread needs to know (structured-cloned into workerData). */
export interface ThreadSetup {
  location: StoreLocation;
  filters: SearchFilters;
  format: ExportFormat;
  encoder: EncoderOptions;
}

export interface SliceTask {
  seq: number;
  after: number;
  until: number;
}

export type SliceResult = { seq: number; bytes: Uint8Array; ends: Uint32Array; rows: number } | { seq: number; error: string };

/** A buffer handed back to the thread that filled it, once its bytes are written. */
export interface Recycle {
  recycle: ArrayBuffer;
}

/**
 * Heap limits of an encoding thread. What a slice allocates dies young, and what lives on is
 * the loaded code and one slice (a few MB): a small nursery and a capped old generation keep
 * the thread's memory flat, where V8 would otherwise let garbage pile up to hundreds of MB
 * between full collections. Speed is the same.
 */
const THREAD_HEAP_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 48 };
/** Spans queued at each thread: enough to ride out a part's fsync, a few hundred kB each. */
const IN_FLIGHT_PER_THREAD = 6;

const THREAD_URL = new URL('./encode-thread.js', import.meta.url);

/** True when the compiled thread script is there (not when running from TypeScript sources). */
export function threadsAvailable(): boolean {
  return existsSync(fileURLToPath(THREAD_URL));
}

export function defaultThreadCount(): number {
  return Math.max(1, Math.min(3, availableParallelism()));
}

/**
 * Slices (0, lastRow] into spans of `span` row numbers, hands them to `threads` workers with a
 * few spans each in flight, and yields the results in order.
 */
export async function* threadedSource(setup: ThreadSetup, lastRow: number, opts: { threads: number; span: number }): AsyncGenerator<EncodedSlice> {
  const total = Math.ceil(lastRow / opts.span);
  const workers = Array.from(
    { length: Math.max(1, Math.min(opts.threads, total)) },
    () => new Worker(THREAD_URL, { workerData: setup, resourceLimits: THREAD_HEAP_LIMITS }),
  );
  const done = new Map<number, SliceResult>();
  let failure: Error | null = null;
  const arrived = new Wakeup();
  const notify = () => arrived.notify();
  let nextTask = 0;
  const owner = new Map<number, Worker>();
  const dispatch = (worker: Worker) => {
    if (nextTask >= total) return;
    const seq = nextTask++;
    owner.set(seq, worker);
    const task: SliceTask = { seq, after: seq * opts.span, until: Math.min(lastRow, (seq + 1) * opts.span) };
    worker.postMessage(task);
  };
  for (const worker of workers) {
    worker.on('message', (result: SliceResult) => {
      done.set(result.seq, result);
      notify();
    });
    worker.on('error', (e) => {
      failure ??= e;
      notify();
    });
    worker.on('exit', (code) => {
      if (code !== 0) failure ??= new Error(`export thread exited with code ${code}`);
      notify();
    });
  }
  try {
    // Several spans a thread in flight, so that no thread idles while this one waits on the disk.
    for (let i = 0; i < IN_FLIGHT_PER_THREAD; i++) for (const w of workers) dispatch(w);
    for (let seq = 0; seq < total; seq++) {
      while (!done.has(seq) && !failure) await arrived.wait();
      if (failure) throw failure;
      const result = done.get(seq)!;
      done.delete(seq);
      if ('error' in result) throw new Error(result.error);
      // The thread that did this span gets the next one.
      const worker = owner.get(seq)!;
      owner.delete(seq);
      dispatch(worker);
      yield { bytes: result.bytes, ends: result.ends, rows: result.rows };
      // Written: the buffer goes back to its thread for a later slice, rather than waiting here
      // for a garbage collection (this thread allocates too little to run one often).
      const buffer = result.bytes.buffer as ArrayBuffer;
      if (buffer.byteLength > 0) worker.postMessage({ recycle: buffer } satisfies Recycle, [buffer]);
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
