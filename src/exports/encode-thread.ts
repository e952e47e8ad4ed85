// A worker thread of a large export: reads slices of the register by row number over its own
// read-only connection, encodes them, and hands the bytes back without copying.
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/open-store.js';
import { encodeSlice, rowEncoder } from './encoders.js';
import type { SliceResult, SliceTask, ThreadSetup } from './sources.js';

const setup = workerData as ThreadSetup;
const store = await openStore({ ...setup.location, bulkReader: true });
const encoder = rowEncoder(setup.format, setup.encoder);

parentPort!.on('message', async (task: SliceTask) => {
  let result: SliceResult;
  const transfer: ArrayBuffer[] = [];
  try {
    const companies = await store.companies.slice(setup.filters, task.after, task.until);
    const slice = encodeSlice(companies, encoder);
    result = { seq: task.seq, bytes: slice.bytes, ends: slice.ends, rows: slice.rows };
    transfer.push(slice.bytes.buffer as ArrayBuffer, slice.ends.buffer as ArrayBuffer);
  } catch (e) {
    result = { seq: task.seq, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(result, transfer);
});
