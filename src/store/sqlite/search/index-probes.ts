// Collecting from an index reads each entry's row only when the query needs a column the index
// lacks; SQLite defers that read until then. A filter whose own index holds its column and the
// status (county, municipality, category, legal form) can be tested there, by a seek to the
// entry of that very row, before the row is read: for a filter that most rows fail
// (county=01&municipality=2580, which exclude each other: 7,600 rows read for none), a seek in
// a narrow index costs less than the wide row.
import type { Predicate, Sql } from './predicates.js';

const STATUS_INDEXES = new Set(['companies_county', 'companies_municipality', 'companies_category', 'companies_legal_form']);

/** A filter that fails at least this share of rows is worth its seek. */
export const PROBE_WHEN_FAILING = 0.5;
/** A seek per value: a category with its many subcategories costs more than the row. */
const MAX_VALUES = 3;

/** Whether a driver's index holds the status: else the probe's own need of it reads the row. */
export function holdsStatus(index: string | undefined): boolean {
  return index !== undefined && (STATUS_INDEXES.has(index) || index === 'companies_status_name');
}

/** The filter tested on its own index for the row at hand, or null when it has no such index. */
export function indexProbe(p: Predicate): Sql | null {
  const driver = p.drivers.find((d) => d.kind === 'index' && d.index !== undefined && STATUS_INDEXES.has(d.index));
  if (!driver || p.check.params.length > MAX_VALUES) return null;
  // Entries are (value, status, rowid): the row's own status and rowid make it one seek.
  const test = p.check.sql.replace(/\bc\./g, 'x.');
  return {
    sql: `EXISTS (SELECT 1 FROM companies x INDEXED BY ${driver.index} WHERE ${test} AND x.status = c.status AND x.rowid = c.rowid)`,
    params: [...p.check.params],
  };
}
