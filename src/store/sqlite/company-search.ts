// GET /companies over SQLite: a planned search (search/planner.ts and its neighbours) returns
// the page's rowids in order with their sort values; the rows are read once, at the end.
import { companyIdFromRow, rowFromCompanyId } from '../../core/company-id.js';
import type { Company } from '../../core/company.js';
import type { SearchFilters, SearchQuery } from '../../core/search-params.js';
import type { CountResult, KeysetPosition, SearchPage } from '../store.js';
import { type CompanyRow, companyArrayReader, distanceKmFrom, rowToCompany } from './company-row.js';
import type { Db } from './database.js';
import type { After } from './search/collect.js';
import { countMatches } from './search/count.js';
import { distancePage } from './search/distance.js';
import { registerSearchFunctions } from './search/functions.js';
import { type Planned, sortedPage } from './search/planner.js';
import { buildPredicates } from './search/predicates.js';
import { relevancePage } from './search/relevance.js';
import { prepared } from './search/statements.js';

/** The page's rowids and sort values, and how they were found. */
export function planSearch(db: Db, query: SearchQuery, after: KeysetPosition | null): Planned {
  registerSearchFunctions(db);
  const preds = buildPredicates(query.filters);
  if (preds.empty) return { hits: [], plan: 'empty' };
  const position: After | null = after ? { v: after.value, r: rowFromCompanyId(after.id) ?? 0 } : null;
  const input = { db, query, preds, after: position, need: query.limit + 1 };
  switch (query.sort.key) {
    case 'relevance':
      return relevancePage(input);
    case 'distance':
      return distancePage(input);
    default:
      return sortedPage(input);
  }
}

export function searchCompanies(db: Db, query: SearchQuery, after: KeysetPosition | null): SearchPage {
  const { hits } = planSearch(db, query, after);
  const page = hits.slice(0, query.limit);
  const expand = query.expand.includes('latest_financials');
  const rows = readRows(db, page.map((h) => h.r), expand);
  const near = query.filters.near;
  const companies = page.map((h) => {
    const row = rows.get(h.r) as CompanyRow;
    const c: Company = rowToCompany(row, { expand });
    if (near) c.distance_km = distanceKmFrom(near, row);
    return c;
  });
  const last = page[page.length - 1];
  // The position names the row by its rowid (as an id), which is what orders ties.
  return { rows: companies, next: hits.length > query.limit && last ? { value: last.v, id: companyIdFromRow(last.r) } : null };
}

export function countCompanies(db: Db, filters: SearchFilters, budgetMs = Infinity): CountResult {
  registerSearchFunctions(db);
  return countMatches(db, filters, budgetMs);
}

function readRows(db: Db, rowids: number[], expand: boolean): Map<number, CompanyRow> {
  const out = new Map<number, CompanyRow>();
  if (rowids.length === 0) return out;
  const reader = companyArrayReader(expand);
  const sql = `SELECT ${reader.select} FROM companies c WHERE c.rowid IN (${rowids.map(() => '?').join(', ')})`;
  for (const values of prepared(db, sql).raw(true).all(...rowids) as unknown[][]) {
    const row = reader.build(values);
    out.set(row.rowid, row);
  }
  return out;
}
