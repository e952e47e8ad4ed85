// A first load empties the full-text, spatial and SNI indexes and builds them at its end. Killed
// before that (a second Ctrl-C, a crash, a full disk in the builds), it left them empty for good:
// the next import of the source is not a first load, and name searches missed every company the
// load wrote. What it emptied is noted in `settings` (first-load-indexes.ts), and the next import
// builds it before its own work.
import { holdFileLock } from './file-lock.js';
import { clearSideIndexesPending, emptySideIndexes, pendingSideIndexes } from './first-load-indexes.js';
import type { Db } from './database.js';
import { buildCompanyIndexes } from './side-indexes.js';

/**
 * Builds the side indexes a first load left empty, if any. Under the first-load lock (a first load
 * running elsewhere builds them itself, and two imports must not build them at once).
 */
export async function repairSideIndexes(db: Db, firstLoadLock: string | null, onWait?: () => void): Promise<void> {
  if (!pendingSideIndexes(db)) return;
  const release = firstLoadLock ? await holdFileLock(firstLoadLock, { onWait }) : () => undefined;
  try {
    const pending = pendingSideIndexes(db);
    if (!pending) return;
    emptySideIndexes(db, pending);
    await buildCompanyIndexes(db, { fingerprints: false, side: pending });
    clearSideIndexesPending(db);
  } finally {
    release();
  }
}
