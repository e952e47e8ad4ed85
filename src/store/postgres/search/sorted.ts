// The sort orders of contract §2.5 other than relevance and distance: value, nulls last in both
// directions, then rowid (ids sort as rowids). Read in two stretches, each an index order:
// the rows with a value from the cursor on, then the rows without one by rowid. Which index
// leads (the order's own, walked with the filters tested, or a filter's, sorted) PostgreSQL
// chooses from its statistics; the order indexes are in company-migrations.ts.
import type { SearchQuery } from '../../../core/search-params.js';
import type { Queryable } from '../database.js';
import type { Position } from './position.js';
import { type Hit, readStretch } from './read.js';
import { type Sql, sql } from './sql.js';

interface SortSpec {
  column: string;
  nullable: boolean;
  /** Few values with long runs: a descending walk goes value by value, each run by rowid. */
  values?: readonly number[];
}

export const SORT_SPECS: Record<string, SortSpec> = {
  name: { column: 'name_sort', nullable: false },
  revenue: { column: 'revenue', nullable: true },
  profit: { column: 'profit', nullable: true },
  registration_date: { column: 'registration_date', nullable: false },
  equity_ratio: { column: 'equity_ratio', nullable: true },
  revenue_growth: { column: 'revenue_growth', nullable: true },
  employees_class: { column: 'employees_rank', nullable: false, values: Array.from({ length: 16 }, (_, i) => i) },
};

export async function sortedPage(db: Queryable, query: SearchQuery, checks: Sql[], after: Position | null, need: number): Promise<Hit[]> {
  const spec = SORT_SPECS[query.sort.key];
  if (!spec) throw new Error(`unknown sort ${query.sort.key}`);
  const col = `c.${spec.column}`;
  const desc = query.sort.descending;
  const expand = query.expand.includes('latest_financials');
  const hits: Hit[] = [];
  if (desc && spec.values) {
    for (const v of [...spec.values].reverse()) {
      if (hits.length >= need) break;
      if (after && v > Number(after.v)) continue;
      const where = [...checks, sql(`${col} = ?`, v)];
      if (after && v === Number(after.v)) where.push(sql('c.rowid > ?', after.r));
      hits.push(...(await readStretch(db, { where, value: sql(col), orderBy: 'c.rowid', limit: need - hits.length }, expand)));
    }
    return hits;
  }
  if (!after || after.v !== null) {
    const where = [...checks];
    if (spec.nullable) where.push(sql(`${col} IS NOT NULL`));
    if (after) {
      where.push(desc ? sql(`${col} <= ? AND (${col} < ? OR c.rowid > ?)`, after.v, after.v, after.r) : sql(`(${col}, c.rowid) > (?, ?)`, after.v, after.r));
    }
    hits.push(...(await readStretch(db, { where, value: sql(col), orderBy: `${col}${desc ? ' DESC' : ''}, c.rowid`, limit: need }, expand)));
  }
  if (spec.nullable && hits.length < need) {
    const where = [...checks, sql(`${col} IS NULL`)];
    if (after && after.v === null) where.push(sql('c.rowid > ?', after.r));
    hits.push(...(await readStretch(db, { where, value: sql('NULL'), orderBy: 'c.rowid', limit: need - hits.length }, expand)));
  }
  return hits;
}
