// The last step of a first load: every index of the companies built from the loaded rows. Two
// cores: this thread builds the B-tree indexes while a worker builds the SNI table, the spatial
// and the full-text index into a side database (bulk/index-thread.ts), copied in at the end (the
// seeder does the same, bulk/load.ts). Without a compiled worker file (a TS test runner) or a
// file database, all on this thread as before.
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { copySideTables, hasIndexThread, runIndexThread, sideSchema } from './bulk/side-tables.js';
import { buildIndexesInBulk } from './company-writer.js';
import { type Db, ensureCompanyIndexes, ensureFingerprintsIndex } from './database.js';
import { isLockHeldElsewhere, lockPath } from './file-lock.js';
import { COMPANY_INDEXES } from './migrations.js';

/** The index thread's page cache: this memory is the importer's (under 300 MB in all). */
const IMPORT_SIDE_CACHE_KIB = 4096;

export function canBuildBeside(db: Db): boolean {
  if (db.name === ':memory:' || db.name === '' || !hasIndexThread()) return false;
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
    const path = join(side, 'indexes.db');
    // Its work is SQLite's: a small JavaScript heap, counted in the importer's memory.
    const limits = { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 };
    const data = { register, path, schema: sideSchema(db), cacheKiB: IMPORT_SIDE_CACHE_KIB, optimize: false };
    // Settles to whether the worker built its part (never rejects: see below).
    const thread = runIndexThread(data, limits).then(
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
