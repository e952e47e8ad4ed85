// A server's WAL checkpoints off its event loop. SQLite checkpoints in the commit that takes the
// WAL past 1,000 pages, inside that call: beside an import, whose transactions fill the WAL, each
// small write of a serving process (a claim, a settled delivery) ran a checkpoint of the import's
// frames, and the event loop stood still for it (32 of 114 s of a Bolagsverket week on the slow
// machine of 2026-11-28; stalls of 0.2–1.1 s every second). A serving connection therefore
// checkpoints never, and a thread with a connection of its own does it every quarter of a second.
// Short-lived processes (the CLI's commands, an import) keep SQLite's own checkpoints.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { THREAD_EXEC_ARGV } from '../../core/thread-exec-argv.js';
import type { CheckpointThreadData } from './checkpoint-thread.js';
import type { Db } from './database.js';

const THREAD = new URL('./checkpoint-thread.js', import.meta.url);
export const CHECKPOINT_INTERVAL_MS = 250;
/** SQLite's own default, given back to the connection when the thread is gone. */
const AUTOCHECKPOINT_PAGES = 1000;
/** How long a stop waits for the thread's last checkpoint before ending it. */
const STOP_WAIT_MS = 5_000;

export interface BackgroundCheckpoints {
  stop(): Promise<void>;
}

/**
 * Moves the connection's checkpoints to a thread. Null where there is no thread to move them to
 * (an in-memory database; the test runner on the TypeScript sources) or it cannot start:
 * SQLite's own stay. Should the thread end of itself, they come back to the connection.
 */
export function checkpointInBackground(db: Db, intervalMs = CHECKPOINT_INTERVAL_MS): BackgroundCheckpoints | null {
  if (db.memory || !db.name || db.readonly || !existsSync(fileURLToPath(THREAD))) return null;
  db.pragma('wal_autocheckpoint = 0');
  let worker: Worker;
  try {
    worker = new Worker(THREAD, {
      workerData: { path: resolve(db.name), intervalMs } satisfies CheckpointThreadData,
      execArgv: THREAD_EXEC_ARGV,
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
    });
  } catch {
    db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    return null;
  }
  // The thread must not keep a server alive that has nothing else to do.
  worker.unref();
  let stopping = false;
  worker.once('error', (e) => process.emitWarning(`WAL checkpoint thread failed (${e.message}); the server checkpoints itself again`));
  const exited = new Promise<void>((done) =>
    worker.once('exit', () => {
      if (!stopping && db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      done();
    }),
  );
  return {
    async stop() {
      stopping = true;
      // Held alive again until it has closed its connection: else a process with nothing else
      // left to do ends first, before the caller closes the register.
      worker.ref();
      worker.postMessage('stop');
      const cut = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
      await exited;
      clearTimeout(cut);
    },
  };
}
