// The side database of the bulk loaders: the index thread (index-thread.ts) builds the SNI
// table, the spatial and the full-text index there while the caller builds the B-trees, and the
// caller copies them in.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { Db } from '../database.js';
import type { IndexThreadData } from './index-thread.js';

const INDEX_THREAD = new URL('./index-thread.js', import.meta.url);
/** The process's flags but --input-type (`node --input-type=module -e …`), which a worker file refuses. */
export const EXEC_ARGV = process.execArgv.filter((a) => !a.startsWith('--input-type'));
/** What the index thread builds, copied in whole (the virtual tables' shadow tables hold no page numbers). */
const SIDE_TABLES = [
  'company_sni',
  'companies_fts_data', 'companies_fts_idx', 'companies_fts_docsize', 'companies_fts_config',
  'companies_geo_node', 'companies_geo_rowid', 'companies_geo_parent',
];

/** Whether the index thread can run: its compiled file exists (not under a TS test runner). */
export function hasIndexThread(): boolean {
  return existsSync(fileURLToPath(INDEX_THREAD));
}

/** The CREATE statements the index thread needs, as the register has them. */
export function sideSchema(db: Db): string[] {
  return db.prepare("SELECT sql FROM sqlite_master WHERE name IN ('company_sni', 'companies_fts', 'companies_geo')").pluck().all() as string[];
}

export function runIndexThread(workerData: IndexThreadData, resourceLimits?: ResourceLimits): Promise<void> {
  return new Promise((done, reject) => {
    const w = new Worker(INDEX_THREAD, { execArgv: EXEC_ARGV, workerData, resourceLimits });
    w.once('message', () => done());
    w.once('error', reject);
    w.once('exit', (code) => (code === 0 ? done() : reject(new Error(`index thread exited with ${code}`))));
  });
}

/** Copies what the index thread built: shadow tables are written directly, hence unsafe mode for the while. */
export function copySideTables(db: Db, path: string): void {
  db.exec(`ATTACH '${path.replaceAll("'", "''")}' AS built`);
  db.unsafeMode(true);
  try {
    db.transaction(() => {
      for (const t of SIDE_TABLES) db.exec(`DELETE FROM main.${t}; INSERT INTO main.${t} SELECT * FROM built.${t};`);
    })();
  } finally {
    db.unsafeMode(false);
    db.exec('DETACH built');
  }
}
