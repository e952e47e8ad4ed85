// Slices of the register by row number, for exports: one read per slice, rows fetched as
// arrays (far cheaper than better-sqlite3's row objects) and mapped by rowToCompany, so an
// export record is exactly what search returns.
import type { Company } from '../../core/company.js';
import type { SearchFilters } from '../../core/search-params.js';
import { COMPANY_COLUMNS, type CompanyRow, rowToCompany } from './company-row.js';
import type { Db } from './database.js';
import { filterSql, haversineKm } from './filter-sql.js';

type FromArray = (values: unknown[]) => CompanyRow;

/** Columns only search needs (sort keys), not read for a record. */
const SKIPPED = new Set<string>(['name_sort', 'city_folded']);

function columnsFor(expand: boolean): string[] {
  return COMPANY_COLUMNS.filter((c) => !SKIPPED.has(c) && (expand || c !== 'latest_financials'));
}

/** A compiled `[v0, v1, …] → {rowid: v0, id: v1, …}`: an object literal of one fixed shape. */
function rowBuilder(columns: readonly string[]): FromArray {
  return new Function('v', `return { ${columns.map((c, i) => `${c}: v[${i}]`).join(', ')} };`) as FromArray;
}

const READERS = {
  plain: { select: columnsFor(false).map((c) => `c.${c}`).join(', '), build: rowBuilder(columnsFor(false)) },
  expanded: { select: columnsFor(true).map((c) => `c.${c}`).join(', '), build: rowBuilder(columnsFor(true)) },
};

export function readSlice(db: Db, filters: SearchFilters, afterRow: number, untilRow: number, expand: boolean): Company[] {
  const { sql, params } = filterSql(filters);
  const reader = expand ? READERS.expanded : READERS.plain;
  // NOT INDEXED: walk the slice by rowid and test each row, rather than letting a filter's
  // index drive a lookup that every slice would repeat in full.
  const rows = db
    .prepare(`SELECT ${reader.select} FROM companies c NOT INDEXED WHERE c.rowid > ? AND c.rowid <= ? AND ${sql} ORDER BY c.rowid`)
    .raw(true)
    .all(afterRow, untilRow, ...params) as unknown[][];
  const near = filters.near;
  const out: Company[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = reader.build(rows[i]);
    const company = rowToCompany(row, { expand });
    if (near && row.lat !== null && row.lng !== null) {
      company.distance_km = Math.round(haversineKm(row.lat, row.lng, near.lat, near.lng) * 1000) / 1000;
    }
    out[i] = company;
  }
  return out;
}
