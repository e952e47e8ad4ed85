// The WAL checkpoints of a server's register, on a thread of their own (background-checkpoints.ts):
// a PASSIVE checkpoint at each tick, until told to stop. A passive checkpoint takes no write lock,
// so neither the server's writes nor an import's wait for it; frames a reader still needs stay
// in the WAL for the next tick.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface CheckpointThreadData {
  path: string;
  intervalMs: number;
}

const { path, intervalMs } = workerData as CheckpointThreadData;
const db = new Database(path, { fileMustExist: true });
// It copies frames from the WAL into the file: no page cache worth keeping, no memory map.
db.pragma('cache_size = -1024');
db.pragma('mmap_size = 0');
db.pragma('busy_timeout = 0');

const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (e) {
    // Another connection checkpoints or starts the WAL over: the next tick tries again. Anything
    // else ends the thread, and the server's connection checkpoints itself again.
    const code = (e as { code?: string }).code ?? '';
    if (!code.startsWith('SQLITE_BUSY') && !code.startsWith('SQLITE_LOCKED')) throw e;
  }
};
const timer = setInterval(checkpoint, intervalMs);
parentPort!.on('message', (m: 'stop') => {
  if (m !== 'stop') return;
  clearInterval(timer);
  try {
    checkpoint();
  } finally {
    db.close();
    parentPort!.close();
  }
});
