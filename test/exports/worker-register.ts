// A SQLite register in a temp folder and the context an export worker runs in, with no server:
// for tests that drive createExport and createExportWorker directly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerContext } from '../../src/app/context.js';
import { Signer } from '../../src/app/signer.js';
import type { RunningWorker } from '../../src/app/worker.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { ProblemLog } from '../../src/app/problem-log.js';

export interface WorkerRegister {
  store: SqliteStore;
  ctx: ServerContext;
  /** Stops these workers, closes the register and removes its folder. */
  close(workers: (RunningWorker | undefined)[]): Promise<void>;
}

export function workerRegister(name: string): WorkerRegister {
  const dir = mkdtempSync(join(tmpdir(), `bolag-${name}-`));
  const store = openSqliteStore(join(dir, 'register.db'), { exportDir: join(dir, 'exports') });
  const ctx: ServerContext = { store, signer: new Signer(name), options: {}, rateLimiter: null, baseUrl: () => 'http://127.0.0.1:1/api/public/v1', problems: new ProblemLog(undefined) };
  return {
    store,
    ctx,
    async close(workers) {
      for (const w of workers) await w?.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
