// The thread that reads an open-data file for an import (read-ahead.ts): opens it, sorts out
// its lines (classify-lines.ts) and hands each batch over without copying, a few ahead of the
// import, which tells it each time it has taken one.
import { parentPort, workerData } from 'node:worker_threads';
import { Wakeup } from '../../core/wakeup.js';
import { openSourceFile } from '../source/open-file.js';
import { BufferPool } from './buffer-pool.js';
import { classifyLines, type ClassifyOptions } from './classify-lines.js';
import { describeReadError, type ReadMessage, type TakenMessage } from './read-messages.js';

/** Batches handed over and not yet taken: enough that the import never waits on this thread. */
const AHEAD = 3;

const port = parentPort!;
const { path, ...opts } = workerData as ClassifyOptions & { path: string };
const pool = new BufferPool(AHEAD + 2);
let ahead = 0;
const taken = new Wakeup();
port.on('message', (m: TakenMessage) => {
  if (m.type === 'free') return pool.give(m.buffer);
  ahead--;
  taken.notify();
});
const send = (m: ReadMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

try {
  const file = await openSourceFile(path);
  send({ type: 'start', totalBytes: file.totalBytes });
  for await (const batch of classifyLines(file.stream, opts, (bytes) => pool.take(bytes))) {
    while (ahead >= AHEAD) await taken.wait();
    ahead++;
    send({ type: 'batch', batch }, [batch.buffer]);
  }
  send({ type: 'end' });
} catch (e) {
  send({ type: 'error', error: describeReadError(e) });
} finally {
  // Nothing more to wait for: the thread ends when what it posted is on its way.
  port.removeAllListeners('message');
  port.unref();
}
