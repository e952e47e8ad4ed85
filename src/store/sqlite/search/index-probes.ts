// Collecting from an index reads each entry's row only when the query needs a column the index
// lacks; SQLite defers that read until then. A filter whose own index holds its column and the
// status (county and municipality, category, legal form) can be tested there, by a seek to the
// entry of that very row, before the row is read: for a filter that most rows fail
// (a county and a municipality outside it, before they shared an index: 7,600 rows read for
// none), a seek in a narrow index costs less than the wide row.
import { NAME_INDEX_COVERS } from '../migrations.js';
import { PLACE_INDEX } from './place-index.js';
import type { Predicate, Sql } from './predicates.js';

/** The indexes whose entries hold the status, with the columns before it in their entries. */
const STATUS_INDEXES = new Map<string, readonly string[]>([
  [PLACE_INDEX, ['county_code', 'municipality_code']],
  ['companies_category', ['category_slug']],
  ['companies_legal_form', ['legal_form']],
]);

/** A filter that fails at least this share of rows is worth its seek. */
export const PROBE_WHEN_FAILING = 0.5;
/** A seek per value: a category with its many subcategories costs more than the row. */
const MAX_VALUES = 3;

/** Whether a driver's index holds the status: else the probe's own need of it reads the row. */
export function holdsStatus(index: string | undefined): boolean {
  return index !== undefined && (STATUS_INDEXES.has(index) || index === 'companies_status_name');
}

/**
 * The filter tested on its own index for the row at hand, or null when it has no such index.
 * `driverIndex`: the index the rows come from, whose entries give the row's own values for the
 * probe's seek (a column it lacks would read the row, which the probe is there to spare).
 */
export function indexProbe(p: Predicate, driverIndex: string): Sql | null {
  const driver = p.drivers.find((d) => d.kind === 'index' && d.index !== undefined && STATUS_INDEXES.has(d.index));
  if (!driver || p.check.params.length > MAX_VALUES) return null;
  const column = p.check.sql.match(/^c\.(\w+) IN/)?.[1];
  const entry = STATUS_INDEXES.get(driver.index!)!;
  // The entry's other columns, the status and the rowid from the row at hand make it one seek.
  const pinned = [...entry.filter((c) => c !== column), 'status'];
  const has = new Set([...(STATUS_INDEXES.get(driverIndex) ?? []), 'status']);
  if (driverIndex === 'companies_status_name') for (const c of NAME_INDEX_COVERS) has.add(c);
  if (!column || !pinned.every((c) => has.has(c))) return null;
  const test = p.check.sql.replace(/\bc\./g, 'x.');
  return {
    sql: `EXISTS (SELECT 1 FROM companies x INDEXED BY ${driver.index} WHERE ${test}${pinned.map((c) => ` AND x.${c} = c.${c}`).join('')} AND x.rowid = c.rowid)`,
    params: [...p.check.params],
  };
}
