// The last step of a first load: every index of the companies built from the loaded rows. Two
// cores: this thread builds the B-tree indexes while a worker builds the SNI table, the spatial
// and the full-text index into a side database (side-index-thread.ts), copied in at the end (the
// seeder does the same, bulk/load.ts). Without a compiled worker file (a TS test runner) or a
// file database, all on this thread as before.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildIndexesInBulk } from './company-writer.js';
import { type Db, ensureCompanyIndexes, ensureFingerprintsIndex } from './database.js';
import { isLockHeldElsewhere, lockPath } from './file-lock.js';
import { COMPANY_INDEXES } from './migrations.js';
import type { SideIndexThreadData } from './side-index-thread.js';

const THREAD = new URL('./side-index-thread.js', import.meta.url);
/** The process's flags but --input-type (`node --input-type=module -e …`), which a worker file refuses. */
const EXEC_ARGV = process.execArgv.filter((a) => !a.startsWith('--input-type'));
/** What the worker builds, copied in whole (the virtual tables' shadow tables hold no page numbers). */
const SIDE_TABLES = [
  'company_sni',
  'companies_fts_data', 'companies_fts_idx', 'companies_fts_docsize', 'companies_fts_config',
  'companies_geo_node', 'companies_geo_rowid', 'companies_geo_parent',
];

export function canBuildBeside(db: Db): boolean {
  if (db.name === ':memory:' || db.name === '' || !existsSync(fileURLToPath(THREAD))) return false;
  // While another process creates the register, ensureCompanyIndexes leaves its indexes to it.
  return !isLockHeldElsewhere(lockPath(resolve(db.name), 'bootstrap'));
}

/** Builds what a first load dropped; `fingerprints` also the fingerprints index. */
export async function buildCompanyIndexes(db: Db, opts: { fingerprints: boolean }): Promise<void> {
  if (!canBuildBeside(db)) {
    db.transaction(() => buildIndexesInBulk(db))();
    ensureCompanyIndexes(db);
    if (opts.fingerprints) ensureFingerprintsIndex(db);
    return;
  }
  const register = resolve(db.name);
  const side = mkdtempSync(join(dirname(register), '.import-indexes-'));
  try {
    const schema = db.prepare("SELECT sql FROM sqlite_master WHERE name IN ('company_sni', 'companies_fts', 'companies_geo')").pluck().all() as string[];
    const path = join(side, 'indexes.db');
    // Settles to whether the worker built its part (never rejects: see below).
    const thread = runThread({ register, path, schema }).then(
      () => true,
      () => false,
    );
    try {
      // Not company_sni's own: it is filled by the copy, and indexed after it (below).
      for (const sql of COMPANY_INDEXES) if (!/ON company_sni\b/.test(sql)) db.exec(sql);
      if (opts.fingerprints) ensureFingerprintsIndex(db);
    } finally {
      // Also when a build here failed: the worker is done with the side file before it goes.
      await thread;
    }
    // A worker that failed (say, out of its small heap) leaves its part to this thread: the
    // rows are committed, and the register must not be left without these indexes.
    if (await thread) copySideTables(db, path);
    else db.transaction(() => buildIndexesInBulk(db))();
    ensureCompanyIndexes(db);
  } finally {
    rmSync(side, { recursive: true, force: true });
  }
}

function runThread(workerData: SideIndexThreadData): Promise<void> {
  return new Promise((done, reject) => {
    // Its work is SQLite's: a small JavaScript heap, counted in the importer's memory.
    const w = new Worker(THREAD, { execArgv: EXEC_ARGV, workerData, resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 } });
    w.once('message', () => done());
    w.once('error', reject);
    w.once('exit', (code) => (code === 0 ? done() : reject(new Error(`index thread exited with ${code}`))));
  });
}

/** Shadow tables are written directly: unsafe mode (defensive off) for the while. */
function copySideTables(db: Db, path: string): void {
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
