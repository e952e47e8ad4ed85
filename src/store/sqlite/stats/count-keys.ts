// The statistics the planner and include_total read instead of counting: companies per
// (dimension, value, status) in `company_counts`. Small (a few thousand rows for the whole
// register) and exact: the bulk loader writes them from the rows it loads, imports adjust them
// row by row, and migration 8 fills them once from an existing register.
//
// Dimensions: every company counts once under `all`, its county, municipality, category, legal
// form, the first three digits of its postal code, each of its SNI codes, and a grid cell of
// 0.1° latitude × 0.2° longitude (about 11 × 11 km in the south; `near` estimates from it).
import type { CompanyRow } from '../company-row.js';

export const GRID_LAT = 10; // cells per degree of latitude
export const GRID_LNG = 5; // cells per degree of longitude

export type CountKey = readonly [dim: string, value: string];

export function gridCell(lat: number, lng: number): string {
  return `${Math.floor(lat * GRID_LAT)}:${Math.floor(lng * GRID_LNG)}`;
}

/** The dimensions, in the order visitCountKeys names them by index. */
export const COUNT_DIMS = ['all', 'county', 'municipality', 'category', 'legal_form', 'postal3', 'sni', 'grid'] as const;
const SNI = COUNT_DIMS.indexOf('sni');
const GRID = COUNT_DIMS.indexOf('grid');

type CountedRow = Pick<CompanyRow, 'county_code' | 'municipality_code' | 'category_slug' | 'legal_form' | 'postal_code' | 'sni_codes' | 'lat' | 'lng'>;

/**
 * Calls `visit` with each (dimension index in COUNT_DIMS, value) a row counts under. A visitor,
 * not a list: the bulk loader counts every row of the register, and building the pairs as
 * arrays cost more than the counting itself.
 */
export function visitCountKeys(row: CountedRow, visit: (dim: number, value: string) => void): void {
  visit(0, '');
  visit(1, row.county_code);
  visit(2, row.municipality_code);
  visit(3, row.category_slug);
  visit(4, row.legal_form);
  visit(5, row.postal_code.slice(0, 3));
  if (row.sni_codes) {
    const codes = row.sni_codes.split(',');
    for (let i = 0; i < codes.length; i++) if (codes.indexOf(codes[i]) === i) visit(SNI, codes[i]);
  }
  if (row.lat !== null && row.lng !== null) visit(GRID, gridCell(row.lat, row.lng));
}

/** The (dimension, value) pairs a row counts under. */
export function countKeys(row: CountedRow): CountKey[] {
  const keys: CountKey[] = [];
  visitCountKeys(row, (dim, value) => keys.push([COUNT_DIMS[dim], value]));
  return keys;
}

/** The same counts as one SQL statement over `companies` (migration, rebuild). */
export const COUNTS_FROM_TABLE_SQL = `
  INSERT INTO company_counts (dim, value, status, n)
  SELECT 'all', '', status, count(*) FROM companies GROUP BY status
  UNION ALL SELECT 'county', county_code, status, count(*) FROM companies GROUP BY 2, 3
  UNION ALL SELECT 'municipality', municipality_code, status, count(*) FROM companies GROUP BY 2, 3
  UNION ALL SELECT 'category', category_slug, status, count(*) FROM companies GROUP BY 2, 3
  UNION ALL SELECT 'legal_form', legal_form, status, count(*) FROM companies GROUP BY 2, 3
  UNION ALL SELECT 'postal3', substr(postal_code, 1, 3), status, count(*) FROM companies GROUP BY 2, 3
  UNION ALL SELECT 'sni', j.value, c.status, count(DISTINCT c.rowid) FROM companies c,
    json_each('["' || replace(c.sni_codes, ',', '","') || '"]') j WHERE c.sni_codes != '' GROUP BY 2, 3
  UNION ALL SELECT 'grid', CAST(floor(lat * ${GRID_LAT}) AS INTEGER) || ':' || CAST(floor(lng * ${GRID_LNG}) AS INTEGER), status, count(*)
    FROM companies WHERE lat IS NOT NULL AND lng IS NOT NULL GROUP BY 2, 3
`;
