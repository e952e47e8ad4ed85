// A worker thread of a large export: reads slices of the register by row number over its own
// read-only connection, encodes them, and hands the bytes over without copying. The buffers
// come back once written and are reused, so memory stays flat however long the export is.
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/open-store.js';
import { encodeSlice, rowEncoder } from './encoders.js';
import type { Recycle, SliceResult, SliceTask, ThreadSetup } from './sources.js';

const setup = workerData as ThreadSetup;
const store = await openStore({ ...setup.location, bulkReader: true });
const encoder = rowEncoder(setup.format, setup.encoder);
const free: ArrayBuffer[] = [];
const MIN_BUFFER = 256 * 1024;
/** Bytes the last slice took: the first guess for the next. */
let lastSize = MIN_BUFFER;

function allocate(bytes: number): Uint8Array {
  const i = free.findIndex((b) => b.byteLength >= bytes);
  if (i >= 0) return new Uint8Array(free.splice(i, 1)[0]);
  // A new buffer, rounded up to a power of two so that it fits later slices too.
  return new Uint8Array(new ArrayBuffer(Math.max(MIN_BUFFER, 2 ** Math.ceil(Math.log2(Math.max(1, bytes))))));
}

parentPort!.on('message', async (message: SliceTask | Recycle) => {
  if ('recycle' in message) {
    if (free.length < 8) free.push(message.recycle);
    return;
  }
  const task = message;
  let result: SliceResult;
  const transfer: ArrayBuffer[] = [];
  try {
    const companies = await store.companies.slice(setup.filters, task.after, task.until);
    const slice = encodeSlice(companies, encoder, allocate, lastSize + (lastSize >> 2));
    lastSize = slice.bytes.length;
    result = { seq: task.seq, bytes: slice.bytes, ends: slice.ends, rows: slice.rows };
    transfer.push(slice.bytes.buffer as ArrayBuffer, slice.ends.buffer as ArrayBuffer);
  } catch (e) {
    result = { seq: task.seq, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(result, transfer);
});
