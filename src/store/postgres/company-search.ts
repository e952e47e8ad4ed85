// GET /companies over PostgreSQL: the page's rows in order, with the position after the last.
// Relevance and distance read in stretches of their own (search/relevance.ts, distance.ts);
// the other orders in value order (search/sorted.ts). `near` is tested row by row, or, when its
// box holds few companies, read through the spatial index (search/near.ts).
import { companyIdFromRow, rowFromCompanyId } from '../../core/company-id.js';
import type { Company } from '../../core/company.js';
import type { SearchQuery } from '../../core/search-params.js';
import type { KeysetPosition, SearchPage } from '../store.js';
import { distanceKmFrom, rowToCompany } from './company-row.js';
import type { Queryable } from './database.js';
import { distancePage } from './search/distance.js';
import { buildConditions } from './search/filters.js';
import { companiesInBox, SMALL_BOX } from './search/near.js';
import type { Position } from './search/position.js';
import type { Hit } from './search/read.js';
import { relevancePage } from './search/relevance.js';
import { sortedPage } from './search/sorted.js';

export async function searchHits(db: Queryable, query: SearchQuery, after: KeysetPosition | null): Promise<Hit[]> {
  const conds = buildConditions(query.filters);
  if (conds.empty) return [];
  const position: Position | null = after ? { v: after.value, r: rowFromCompanyId(after.id) ?? 0 } : null;
  const need = query.limit + 1;
  // A box with few companies is read through the spatial index; a dense one is tested row by row.
  const inBox = conds.box !== null ? await companiesInBox(db, conds.box) : null;
  const smallBox = inBox !== null && inBox <= SMALL_BOX;
  const checks = smallBox ? [...conds.list, conds.box!] : [...conds.list];
  switch (query.sort.key) {
    case 'relevance':
      return relevancePage(db, query, conds, checks, position, need);
    case 'distance':
      return distancePage(db, query, conds, [...conds.list], position, need);
    default:
      return sortedPage(db, query, checks, position, need, conds.box && !smallBox ? [conds.box] : [], smallBox ? inBox : null);
  }
}

export async function searchCompanies(db: Queryable, query: SearchQuery, after: KeysetPosition | null): Promise<SearchPage> {
  const hits = await searchHits(db, query, after);
  const page = hits.slice(0, query.limit);
  const expand = query.expand.includes('latest_financials');
  const near = query.filters.near;
  const rows: Company[] = page.map((h) => {
    const c = rowToCompany(h.row, { expand });
    if (near) c.distance_km = distanceKmFrom(near, h.row);
    return c;
  });
  const last = page[page.length - 1];
  return { rows, next: hits.length > query.limit && last ? { value: last.v, id: companyIdFromRow(last.r) } : null };
}
