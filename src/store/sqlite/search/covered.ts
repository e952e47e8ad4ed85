// Which filters a walk in name order can test on the entries of the name index itself: those
// whose columns the index carries (NAME_INDEX_COVERS in migrations.ts). A dense city, the
// largest municipality with a broad category, a postal prefix with an employee class: each
// keeps one entry in tens or hundreds, and an entry that fails costs no row read.
import { NAME_INDEX_COVERS } from '../migrations.js';
import type { Predicate } from './predicates.js';

const COLUMNS = new Set<string>(['status', 'name_sort', 'rowid', ...NAME_INDEX_COVERS]);

/** The filters, by name, whose check reads only covered columns (and distance_km of them). */
const COVERED = new Set([
  'county', 'municipality', 'category', 'legal_form', 'postal_code', 'employees_class', 'near',
  'has_financials', 'f_skatt', 'vat_registered', 'employer_registered', 'verified', 'exclude_advertising_blocked',
]);

export function coveredByNameIndex(p: Predicate): boolean {
  if (!COVERED.has(p.name)) return false;
  // Guard against a check that grows a column the index lacks.
  const columns = [...p.check.sql.matchAll(/\bc\.(\w+)/g)].map((m) => m[1]);
  return columns.every((c) => COLUMNS.has(c));
}
