// The rows a source listed before, page by page, for the vanished-rows step of an import whose
// source has no fingerprints (with them, store/listed-fingerprints.ts knows the listed rows).
import type { Db } from './database.js';

export function* listedRowPages(db: Db, sourceBit: number): Generator<number[]> {
  const page = db.prepare('SELECT rowid FROM companies WHERE rowid > ? AND (sources & ?) != 0 ORDER BY rowid LIMIT 10000').pluck();
  let after = 0;
  for (;;) {
    const ids = page.all(after, sourceBit) as number[];
    if (ids.length === 0) return;
    after = ids[ids.length - 1];
    yield ids;
  }
}
