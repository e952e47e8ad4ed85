// GET /companies over SQLite: filters, sort with nulls last and rowid as tiebreak, keyset pages.
import type { SearchFilters, SearchQuery } from '../../core/search-params.js';
import { rowFromCompanyId } from '../../core/company-id.js';
import type { CountResult, KeysetPosition, SearchPage } from '../store.js';
import { type CompanyRow, companySelectList, rowToCompany } from './company-row.js';
import type { Db } from './database.js';
import { filterSql, ftsQuery, haversineKm } from './filter-sql.js';

const SORT_COLUMNS: Record<string, string> = {
  name: 'c.name_sort',
  revenue: 'c.revenue',
  profit: 'c.profit',
  registration_date: 'c.registration_date',
  equity_ratio: 'c.equity_ratio',
  revenue_growth: 'c.revenue_growth',
  employees_class: 'c.employees_rank',
};

const BM25 = 'bm25(companies_fts, 10.0, 2.0, 5.0)';

export function searchCompanies(db: Db, query: SearchQuery, after: KeysetPosition | null): SearchPage {
  const f = query.filters;
  const expand = query.expand.includes('latest_financials');
  const { key, descending } = query.sort;
  const where: string[] = [];
  const params: unknown[] = [];
  let from = 'companies c';
  let sortExpr: string;
  if (key === 'relevance') {
    const match = ftsQuery(f.q ?? '');
    if (match === null) return { rows: [], next: null };
    from = 'companies_fts JOIN companies c ON c.rowid = companies_fts.rowid';
    sortExpr = BM25;
    where.push('companies_fts MATCH ?');
    params.push(match);
  } else if (key === 'distance') {
    // Validated numbers, written as literals so the expression needs no parameters.
    sortExpr = `distance_km(c.lat, c.lng, ${Number(f.near!.lat)}, ${Number(f.near!.lng)})`;
  } else {
    sortExpr = SORT_COLUMNS[key];
  }
  const filters = filterSql(f, { skipText: key === 'relevance' });
  where.push(filters.sql);
  params.push(...filters.params);
  if (after) {
    const keyset = keysetCondition(sortExpr, descending, after);
    where.push(keyset.sql);
    params.push(...keyset.params);
  }
  const order = `ORDER BY (${sortExpr}) IS NULL, ${sortExpr} ${descending ? 'DESC' : 'ASC'}, c.rowid ASC`;
  const sql = `SELECT ${companySelectList('c', expand)}, ${sortExpr} AS sort_value FROM ${from} WHERE ${where.join(' AND ')} ${order} LIMIT ?`;
  const rows = db.prepare(sql).all(...params, query.limit + 1) as (CompanyRow & { sort_value: string | number | null })[];
  const hasMore = rows.length > query.limit;
  const page = hasMore ? rows.slice(0, query.limit) : rows;
  const last = page[page.length - 1];
  return {
    rows: page.map((r) => {
      const c = rowToCompany(r, { expand });
      if (f.near && r.lat !== null && r.lng !== null) c.distance_km = round3(haversineKm(r.lat, r.lng, f.near.lat, f.near.lng));
      return c;
    }),
    next: hasMore && last ? { value: last.sort_value, id: last.id } : null,
  };
}

function keysetCondition(expr: string, descending: boolean, after: KeysetPosition): { sql: string; params: unknown[] } {
  const rowid = rowFromCompanyId(after.id) ?? 0;
  if (after.value === null) return { sql: `((${expr}) IS NULL AND c.rowid > ?)`, params: [rowid] };
  const cmp = descending ? '<' : '>';
  return {
    sql: `((${expr}) ${cmp} ? OR ((${expr}) = ? AND c.rowid > ?) OR (${expr}) IS NULL)`,
    params: [after.value, after.value, rowid],
  };
}

export function countCompanies(db: Db, filters: SearchFilters): CountResult {
  const { sql, params } = filterSql(filters);
  const row = db.prepare(`SELECT count(*) AS n FROM companies c WHERE ${sql}`).get(...params) as { n: number };
  return { total: row.n, estimated: false };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
