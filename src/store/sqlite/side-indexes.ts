// The last step of a first load: every index of the companies built from the loaded rows, on
// two cores as the seeder builds them (bulk/side-tables.ts). Without a compiled worker file (a
// TS test runner) or a file database, all on this thread.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildIndexesBeside, hasIndexThread } from './bulk/side-tables.js';
import { buildIndexesInBulk, type SideIndexes, type SpatialPack } from './company-writer.js';
import { type Db, ensureCompanyIndexes, ensureFingerprintsIndex } from './database.js';
import { isLockHeldElsewhere, lockPath } from './file-lock.js';
import { FINGERPRINTS_INDEX } from './migrations.js';
import { makeSideFolder } from './side-folder.js';

/** The index thread's page cache: this memory is the importer's (under 300 MB in all). */
const IMPORT_SIDE_CACHE_KIB = 4096;
/** The importer's own page cache while it builds the B-trees (and so its sorter's memory). */
const IMPORT_BUILD_CACHE_KIB = 4096;
/** The points sorted by SQLite, which spills to disk: ~12 MB at full size instead of ~90 (bulk/streamed-rtree.ts). */
const IMPORT_SPATIAL_PACK: SpatialPack = 'streamed';

export function canBuildBeside(db: Db): boolean {
  if (db.name === ':memory:' || db.name === '' || !hasIndexThread()) return false;
  // While another process creates the register, ensureCompanyIndexes leaves its indexes to it.
  return !isLockHeldElsewhere(lockPath(resolve(db.name), 'bootstrap'));
}

/** Builds what a first load dropped: the B-trees missing, the `side` indexes it emptied; `fingerprints` also the fingerprints index. */
export async function buildCompanyIndexes(
  db: Db,
  opts: { fingerprints: boolean; side: SideIndexes; onIndex?: (done: number, total: number) => void },
): Promise<void> {
  if (!canBuildBeside(db)) {
    opts.onIndex?.(0, 1);
    db.transaction(() => buildIndexesInBulk(db, { spatial: IMPORT_SPATIAL_PACK, only: opts.side }))();
    ensureCompanyIndexes(db);
    if (opts.fingerprints) ensureFingerprintsIndex(db);
    opts.onIndex?.(1, 1);
    return;
  }
  const side = makeSideFolder(db.name, '.import-indexes-');
  // The B-trees' builds read the table once and write each index in order, so the page cache
  // holds nothing read twice; SQLite's sorter keeps up to the cache's size of keys in memory
  // before it spills a run to disk. Both are the importer's memory while the index thread works
  // beside them.
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = ${-IMPORT_BUILD_CACHE_KIB}`);
  collectGarbage();
  try {
    await buildIndexesBeside(db, {
      dir: side,
      cacheKiB: IMPORT_SIDE_CACHE_KIB,
      spatial: IMPORT_SPATIAL_PACK,
      // Its work is SQLite's: a small JavaScript heap, counted in the importer's memory.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
      alsoHere: opts.fingerprints ? [FINGERPRINTS_INDEX] : [],
      side: opts.side,
      onIndex: opts.onIndex,
    });
  } finally {
    db.pragma(`cache_size = ${cacheSize}`);
    rmSync(side, { recursive: true, force: true });
  }
}

/**
 * A full collection of this thread's heap, so that what the rows phase left behind (40-90 MB at
 * full size) is given back before the index thread's memory comes beside it: in the index phase
 * this thread only waits on SQLite, allocates almost nothing, and would not collect on its own.
 */
function collectGarbage(): void {
  try {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  } catch {
    // Only memory is lost.
  }
}
