// The sort orders of contract §2.5 other than relevance and distance: value, nulls last in both
// directions, then rowid (ids sort as rowids). Read in stretches, each an index order: the rows
// with a value from the cursor on, then the rows without one by rowid (employees_class
// descending: value by value, each by rowid).
//
// A stretch is first walked: the order's own index read from the cursor on, at most WALK_ROWS
// entries, with the filters tested on the rows read (a LIMIT inside a subquery, so PostgreSQL
// cannot walk further). When that does not fill the page (the filters are rarer than a walk
// can afford: PostgreSQL's LIMIT costing would have walked a whole index for a combination
// that never occurs), the stretch is collected: the filters' own indexes find the rows and
// they are sorted (the sort value written so that the order's index cannot be walked). The
// stretches of employees_class descending, value by value, go a few to a statement, and a
// walk among them that read all of its value is not collected again (search/walk.ts).
import type { SearchQuery } from '../../../core/search-params.js';
import { BROAD_LEGAL_FORMS, NARROW_EMPLOYEES_RANK } from '../company-migrations.js';
import type { Queryable } from '../database.js';
import type { Condition } from './filters.js';
import type { Position } from './position.js';
import { coveredRows, ENTRY_COVERS, smallestFilter } from './filter-rows.js';
import type { Hit } from './read.js';
import { type Sql, sql } from './sql.js';
import { readParts, type WalkInput } from './walk.js';

interface SortSpec {
  column: string;
  nullable: boolean;
  /** The filter (condition name) that is a range of this column: walked inside the index. */
  range?: string;
  /** Few values with long runs: a descending walk goes value by value, each run by rowid. */
  values?: readonly number[];
  text?: boolean;
}

export const SORT_SPECS: Record<string, SortSpec> = {
  name: { column: 'name_sort', nullable: false, text: true },
  revenue: { column: 'revenue', nullable: true, range: 'revenue' },
  profit: { column: 'profit', nullable: true, range: 'profit' },
  registration_date: { column: 'registration_date', nullable: false, range: 'registered', text: true },
  equity_ratio: { column: 'equity_ratio', nullable: true, range: 'equity_ratio' },
  revenue_growth: { column: 'revenue_growth', nullable: true, range: 'revenue_growth' },
  employees_class: { column: 'employees_rank', nullable: false, range: 'employees_class', values: Array.from({ length: 16 }, (_, i) => i) },
};

/**
 * Index entries a walk reads before the stretch is collected instead: about twice the rows of
 * the smallest filter that collecting would start from (company_counts; a walk in value order
 * reads the table as randomly as collecting, but without the sort), within these bounds.
 */
const WALK_ROWS = { min: 1500, max: 50_000, unknown: 20_000 };
const RANDOM_READ = 2;
const COLLECT_AT_ONCE = 2500;

/**
 * Filters of one value that lead an index in the order's column, with the status after them
 * (company-migrations.ts), and the values that index holds: a walk of that order within them is
 * a range of that index. The first the query has leads. Verified companies (true only) have a
 * partial index of their own; only the narrow legal forms and employee classes are indexed in
 * revenue order (a walk of all revenues finds the broad ones at once).
 */
const LEADERS: Record<string, readonly { name: string; when?: (value: unknown) => boolean }[]> = {
  name_sort: [{ name: 'municipality' }, { name: 'county' }, { name: 'category' }, { name: 'verified', when: (v) => v === 1 }],
  revenue: [
    { name: 'legal_form', when: (v) => !BROAD_LEGAL_FORMS.includes(v as string) },
    { name: 'employees_class', when: (v) => (v as number) >= NARROW_EMPLOYEES_RANK },
  ],
};

/**
 * `collectHints`: conditions implied by the checks that give collecting an index (the `near`
 * box through the spatial index, when it was left out of the checks for a walk).
 */
export async function sortedPage(
  db: Queryable,
  query: SearchQuery,
  checks: Condition[],
  after: Position | null,
  need: number,
  collectHints: Sql[] = [],
  /** Rows of a driver known already (a small near box). */
  known: number | null = null,
): Promise<Hit[]> {
  const spec = SORT_SPECS[query.sort.key];
  if (!spec) throw new Error(`unknown sort ${query.sort.key}`);
  const col = `c.${spec.column}`;
  const desc = query.sort.descending;
  const expand = query.expand.includes('latest_financials');
  const own = ownConditions(spec, checks);
  const rest = checks.filter((c) => !own.some((o) => o.name === c.name));
  const counted = await smallestFilter(db, rest);
  // Filters that exclude each other are seen on a counted filter's index entries (filter-rows.ts).
  const joint = rest.length > 0 && (counted === null || counted > COLLECT_AT_ONCE) ? await coveredRows(db, checks, COLLECT_AT_ONCE) : null;
  const least = Math.min(known ?? Infinity, counted ?? Infinity, joint ?? Infinity);
  const smallest = least === Infinity ? null : least;
  // A driver this small is collected at once: cheaper than any walk that might fail.
  const budget =
    smallest === null ? WALK_ROWS.unknown : smallest <= COLLECT_AT_ONCE ? 0 : Math.min(WALK_ROWS.max, Math.max(WALK_ROWS.min, smallest * RANDOM_READ));
  const hits: Hit[] = [];
  const part = (where: Sql[], order: string, collectOrder: string, limit: number): WalkInput => ({
    own: [...own, ...where],
    rest,
    hints: collectHints,
    value: sql(col),
    order,
    collectOrder,
    limit,
    budget,
  });
  const stretch = async (where: Sql[], order: string, collectOrder: string, limit: number) =>
    hits.push(...(await readParts(db, [part(where, order, collectOrder, limit)], limit, expand)));
  const collectValue = spec.text ? `(${col} || '') COLLATE "C"` : `(${col} + 0)`;

  if (desc && spec.values) {
    // Value by value, all in one statement (a value's stretch is often a few rows).
    const parts = [...spec.values]
      .reverse()
      .filter((v) => !after || v <= Number(after.v))
      .map((v) => ({ ...part([sql(`${col} = ?`, v), ...(after && v === Number(after.v) ? [sql('c.rowid > ?', after.r)] : [])], 'c.rowid', 'c.rowid + 0', need), partOf: v }));
    return readParts(db, parts, need, expand);
  }
  if (!after || after.v !== null) {
    const where: Sql[] = spec.nullable ? [sql(`${col} IS NOT NULL`)] : [];
    if (after) {
      where.push(desc ? sql(`${col} <= ? AND (${col} < ? OR c.rowid > ?)`, after.v, after.v, after.r) : sql(`(${col}, c.rowid) > (?, ?)`, after.v, after.r));
    }
    await stretch(where, `${col}${desc ? ' DESC' : ''}, c.rowid`, `${collectValue}${desc ? ' DESC' : ''}, c.rowid`, need);
  }
  const range = spec.range ? own.some((c) => c.name === spec.range) : false;
  if (spec.nullable && !range && hits.length < need) {
    const where = [sql(`${col} IS NULL`), ...(after && after.v === null ? [sql('c.rowid > ?', after.r)] : [])];
    await stretch(where, 'c.rowid', 'c.rowid + 0', need - hits.length);
  }
  return hits;
}

/**
 * The filters the order's index settles itself: a range of the sort column; with one status, a
 * leader of the order (LEADERS) and the filters its index holds on its entries (ENTRY_COVERS),
 * tested there before a row is read. A walk's budget counts the rows read; entries that fail
 * these cost less, and a leader bounds them.
 */
function ownConditions(spec: SortSpec, checks: Condition[]): Condition[] {
  const own: Condition[] = [];
  const range = checks.find((c) => c.name === spec.range);
  if (range) own.push(range);
  const status = checks.find((c) => c.name === 'status');
  const leaders = LEADERS[spec.column];
  if (!leaders || !status || status.params.length !== 1) return own;
  const leader = leaders
    .map((l) => checks.find((c) => c.name === l.name && c.params.length === 1 && (!l.when || l.when(c.params[0]))))
    .find(Boolean);
  // Name order has an index led by the status alone; other orders only within a leader.
  if (spec.column === 'name_sort' || leader) own.push(status);
  if (!leader) return own;
  // The partial index's predicate as written in it: PostgreSQL proves it from a literal.
  own.push(leader.name === 'verified' ? { name: 'verified', ...sql('c.verified = 1') } : leader);
  const entry = ENTRY_COVERS[leader.name];
  if (entry?.when(leader)) own.push(...checks.filter((c) => entry.covers.includes(c.name) && c !== status));
  return own;
}
