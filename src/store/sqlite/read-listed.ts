// The fingerprints of every row that lists a source, read when its weekly import starts
// (ListedFingerprints), on SQLite.
import { ListedFingerprints } from '../listed-fingerprints.js';
import type { Db } from './database.js';

/**
 * Rows of the fingerprints read at a time, an array each. A page is alive while it is read into
 * the arrays: at 20,000 rows the reads took the process 40 MB higher (the young generation grown
 * for what survived its collections), at 250 about 7 MB, for the same speed.
 */
const LISTED_PAGE = 250;

/**
 * Every row that lists the source, by its line's fingerprint (ListedFingerprints), in one read:
 * pages by org nr along the covering index, the org nr as a number (full size, 2.5 million rows:
 * 1.3 s, where one statement stepped row by row with the org nr as text took 2.2–2.4 s).
 */
export function readListed(db: Db, column: string, pageSize = LISTED_PAGE): ListedFingerprints {
  const where = `FROM companies INDEXED BY companies_fingerprints WHERE ${column} IS NOT NULL`;
  const page = db.prepare(`SELECT CAST(org_nr AS INTEGER), rowid, ${column} ${where} AND org_nr > ? ORDER BY org_nr LIMIT ${pageSize}`).raw(true);
  return db.transaction(() => {
    const listed = new ListedFingerprints(db.prepare(`SELECT count(*) ${where}`).pluck().get() as number);
    // Org nrs are ten digits: the next page starts after the last one's text.
    for (let after = ''; ; ) {
      const rows = page.all(after) as [number, number, number][];
      for (const [orgNr, rowid, print] of rows) listed.add(orgNr, rowid, print);
      if (rows.length < pageSize) return listed;
      after = String(rows[rows.length - 1][0]).padStart(10, '0');
    }
  })();
}
