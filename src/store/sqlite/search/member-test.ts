// A walk in a sort order's own index (revenue, profit, …: entries of value and rowid) reads the
// row of every entry to test the filters, ruinous when few pass: sort=-revenue&category=bygg&
// employees_class=10-19 read 13,500 rows for a page. When one filter's driver yields a set of
// rowids not much larger than the walk, that set is built once per statement (SQLite makes it an
// ephemeral index with a Bloom filter) and each entry is tested for membership on its rowid
// before its row is read: only the entries in the set cost a row (25 -> 8 ms on the 1.2 million).
// A set much larger than the walk costs more to build than the rows it spares
// (sort=-revenue&municipality=1480&f_skatt=true: 2.4 -> 13 ms), hence the bound.
import type { Driver, Predicate, Sql } from './predicates.js';

/**
 * Building the set costs about this share of a row read per rowid: measured ~0.06 (60,000
 * rowids ~6 ms, a row ~1.7 µs), rounded up. sort=-revenue&legal_form=ekonomisk_forening (a set
 * of 15,000 for a walk of 7,400 entries): 4.5 -> 2.9 ms.
 */
const SET_COST = 0.1;
/** The share of a row read that a walked entry outside the set still costs. */
const ENTRY_COST = 0.3;

/**
 * The membership test of the walked entries (`s.r`, walk.ts) in the rowids of the cheapest
 * driver, or null when the set would cost more than the row reads it spares. `estimate`: the
 * driver's rows (counted, or from the sample); `walkRows`: the entries the walk expects to read.
 */
export function memberTest(best: { driver: Driver; predicate: Predicate; estimate: number } | null, walkRows: number, covered: ReadonlySet<Predicate>): Sql | null {
  if (!best || covered.has(best.predicate) || best.predicate.name === 'q') return null;
  if (best.estimate * SET_COST >= walkRows * (1 - ENTRY_COST)) return null;
  const d = best.driver;
  // The driver's own rows: exactly those that pass its filter (and the status, when its index
  // holds it), so the test only spares the reads of rows the checks would refuse anyway.
  const rowids = d.kind === 'index' ? `SELECT c.rowid FROM companies c INDEXED BY ${d.index} WHERE ${d.sql}` : d.sql;
  return { sql: `s.r IN (${rowids})`, params: [...d.params] };
}
