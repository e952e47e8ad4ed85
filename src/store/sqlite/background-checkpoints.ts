// A server's WAL checkpoints off its event loop. SQLite checkpoints in the commit that takes the
// WAL past 1,000 pages, inside that call: beside an import, whose transactions fill the WAL, each
// small write of a serving process (a claim, a settled delivery) ran a checkpoint of the import's
// frames, and the event loop stood still for it (32 of 114 s of a Bolagsverket week on the slow
// machine of 2026-11-28; stalls of 0.2–1.1 s every second). A serving connection therefore
// checkpoints never, and a thread with a connection of its own does it every quarter of a second.
// Short-lived processes (the CLI's commands, an import) keep SQLite's own checkpoints.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { THREAD_EXEC_ARGV } from '../../core/thread-exec-argv.js';
import type { CheckpointThreadData } from './checkpoint-thread.js';
import type { Db } from './database.js';

const THREAD = new URL('./checkpoint-thread.js', import.meta.url);
export const CHECKPOINT_INTERVAL_MS = 250;

export interface BackgroundCheckpoints {
  stop(): Promise<void>;
}

/**
 * Moves the connection's checkpoints to a thread. Null where there is no thread to move them to
 * (an in-memory database; the test runner on the TypeScript sources): SQLite's own stay.
 */
export function checkpointInBackground(db: Db, intervalMs = CHECKPOINT_INTERVAL_MS): BackgroundCheckpoints | null {
  if (db.memory || !db.name || !existsSync(fileURLToPath(THREAD))) return null;
  const worker = new Worker(THREAD, {
    workerData: { path: db.name, intervalMs } satisfies CheckpointThreadData,
    execArgv: THREAD_EXEC_ARGV,
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
  });
  // The thread must not keep a server alive that has nothing else to do.
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  let exited = false;
  const exit = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A thread that failed leaves the connection to checkpoint as before: the WAL must not grow unbounded.
  worker.once('error', () => {
    if (db.open) db.pragma('wal_autocheckpoint = 1000');
  });
  void exit.then(() => {
    exited = true;
  });
  return {
    async stop() {
      if (!exited) worker.postMessage('stop');
      await exit;
    },
  };
}
