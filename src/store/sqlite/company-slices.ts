// Slices of the register by row number, for exports: one read per slice, rows fetched as
// arrays (companyArrayReader) and mapped by rowToCompany, so an
// export record is exactly what search returns.
import type { Company } from '../../core/company.js';
import type { SearchFilters } from '../../core/search-params.js';
import { companyArrayReader, distanceKmFrom, rowToCompany } from './company-row.js';
import type { Db } from './database.js';
import { filterSql } from './filter-sql.js';

export function readSlice(db: Db, filters: SearchFilters, afterRow: number, untilRow: number, expand: boolean): Company[] {
  const { sql, params } = filterSql(filters);
  const reader = companyArrayReader(expand);
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
    if (near) company.distance_km = distanceKmFrom(near, row);
    out[i] = company;
  }
  return out;
}
