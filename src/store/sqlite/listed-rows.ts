// The rows a source listed before, page by page, for the vanished-rows step of an import: with
// fingerprints, from the covering index (a row a source lists carries its line's fingerprint,
// cleared when it is marked as vanished), else by the source bit from the table.
import type { Db } from './database.js';

export function* listedRowPages(db: Db, sourceBit: number, fingerprintColumn: string | undefined): Generator<number[]> {
  if (fingerprintColumn) {
    const page = db
      .prepare(
        `SELECT org_nr, rowid FROM companies INDEXED BY companies_fingerprints WHERE org_nr > ? AND ${fingerprintColumn} IS NOT NULL ORDER BY org_nr LIMIT 10000`,
      )
      .raw(true);
    let after = '';
    for (;;) {
      const rows = page.all(after) as [string, number][];
      if (rows.length === 0) return;
      after = rows[rows.length - 1][0];
      yield rows.map((r) => r[1]);
    }
  }
  const page = db.prepare('SELECT rowid FROM companies WHERE rowid > ? AND (sources & ?) != 0 ORDER BY rowid LIMIT 10000').pluck();
  let after = 0;
  for (;;) {
    const ids = page.all(after, sourceBit) as number[];
    if (ids.length === 0) return;
    after = ids[ids.length - 1];
    yield ids;
  }
}
