// The fingerprints of every row a source lists, read once when its weekly import starts (see
// ../listed-fingerprints.ts): one sorted scan through a cursor, in one snapshot.
import { ListedFingerprints } from '../listed-fingerprints.js';
import type { PgDb } from './database.js';

/** Every row that lists the source, by its line's fingerprint (ListedFingerprints), from one snapshot. */
export async function readListed(db: PgDb, column: string): Promise<ListedFingerprints> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM companies WHERE ${column} IS NOT NULL`);
    const listed = new ListedFingerprints(rows[0].n);
    // One sorted scan, fetched a page at a time: the cheapest plan for all of it (a scan and a
    // sort, 1 s for 1.4 million), where pages by key walked the org nr index and fetched every
    // row from the heap at random (13 s). The cursor would otherwise be planned for its first rows.
    await client.query('SET LOCAL cursor_tuple_fraction = 1');
    await client.query(`DECLARE listed NO SCROLL CURSOR FOR SELECT org_nr, rowid, ${column} FROM companies WHERE ${column} IS NOT NULL ORDER BY org_nr`);
    for (;;) {
      const page = await client.query<[string, number, number]>({ text: 'FETCH 20000 FROM listed', rowMode: 'array' });
      if (page.rows.length === 0) break;
      for (const [orgNr, rowid, print] of page.rows) listed.add(orgNr, rowid, print);
    }
    await client.query('COMMIT');
    return listed;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
