// Which index a sorted walk reads, and which filters that index settles on its own entries:
//   - name order: companies_status_name, whose entries carry the common filters' columns
//     (covered.ts), tested before a row is read; one status's entries, or several statuses'
//     merged (status-merge.ts);
//   - revenue order with one employee class (1-4 and up): companies_employees_revenue, the
//     class's own companies in revenue order. The revenue order runs against the grain of the
//     small classes (the lowest revenues are the smallest companies): sort=revenue&
//     employees_class=5-9 read 327,000 entries of companies_revenue for a page (1.4 s), and
//     sort=-revenue&category=bygg&employees_class=10-19 65,000 (8 ms);
//   - else the order's own index, with a range filter on its column settled there.
import type { SearchQuery } from '../../../core/search-params.js';
import type { Predicate, Predicates } from './predicates.js';
import type { SortSpec, WalkSource } from './sort-keys.js';
import { CLASS_REVENUE_FROM_RANK } from '../migrations.js';
import { coveredByNameIndex } from './covered.js';
import type { Db } from '../database.js';
import { statusesPresent } from './status-merge.js';

/** Its entries: (employees_rank, revenue, rowid, status), for ranks from CLASS_REVENUE_FROM_RANK up. */
export const CLASS_REVENUE_INDEX = 'companies_employees_revenue';

export interface ChosenSource {
  src: WalkSource;
  /** Filters the source settles: never tested again. */
  covered: Set<Predicate>;
  /** Filters tested on the source's entries before the row is read (still in the walk's own checks otherwise). */
  onEntry: Predicate[];
  /** The whole order, not one status's or one class's part of it: its entries may be tested in a driver's rowids (member-test.ts). */
  whole: boolean;
}

export function walkSource(db: Db, query: SearchQuery, preds: Predicates, spec: SortSpec): ChosenSource {
  const status = query.filters.status;
  const covered = new Set<Predicate>();
  const onEntry: Predicate[] = [];
  const byName = query.sort.key === 'name';
  const byStatus = byName && status !== null && status.length === 1;
  const employees = preds.list.find((p) => p.name === 'employees_class');
  const rank = employees && employees.check.params.length === 1 ? (employees.check.params[0] as number) : -1;
  if (query.sort.key === 'revenue' && rank >= CLASS_REVENUE_FROM_RANK) {
    // The class's companies without a revenue come last, in rowid order: its own index has them so.
    // The index's own condition, word for word: SQLite uses a partial index only when the query
    // implies its WHERE, and a bound rank proves nothing.
    const partial = { sql: `c.employees_rank >= ${CLASS_REVENUE_FROM_RANK}`, params: [] };
    const src: WalkSource = { index: CLASS_REVENUE_INDEX, where: [partial, employees!.check], nulls: true, nullsIndex: 'companies_employees' };
    covered.add(employees!);
    // The status is on the entry: refused entries cost no row.
    const byStatusToo = preds.list.find((p) => p.name === 'status');
    if (byStatusToo) {
      src.where.push(byStatusToo.check);
      covered.add(byStatusToo);
    }
    for (const p of preds.list) if (p.sortColumn === spec.column && p.range) settleRange(src, covered, p, spec);
    return { src, covered, onEntry, whole: false };
  }
  const src: WalkSource = { index: spec.index, where: [], nulls: true };
  if (byName && !byStatus) src.statuses = status ?? statusesPresent(db);
  for (const p of preds.list) {
    if (byStatus && p.name === 'status') {
      src.where.push({ sql: 'c.status = ?', params: [status[0]] });
      covered.add(p);
    } else if (byName && p.name === 'status') {
      covered.add(p);
    } else if (byName && coveredByNameIndex(p)) {
      src.where.push(p.check);
      onEntry.push(p);
    } else if (p.sortColumn === spec.column && p.range) {
      settleRange(src, covered, p, spec);
    }
  }
  return { src, covered, onEntry, whole: !byStatus };
}

/** A range filter on the order's own column, settled by where the walk starts and stops (no nulls pass it). */
function settleRange(src: WalkSource, covered: Set<Predicate>, p: Predicate, spec: SortSpec): void {
  src.where.push(p.range!);
  src.nulls = false;
  covered.add(p);
  if (spec.values) src.values = p.check.params as number[];
}
