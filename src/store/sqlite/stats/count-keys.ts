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

/** The (dimension, value) pairs a row counts under. */
export function countKeys(row: Pick<CompanyRow, 'county_code' | 'municipality_code' | 'category_slug' | 'legal_form' | 'postal_code' | 'sni_codes' | 'lat' | 'lng'>): CountKey[] {
  const keys: CountKey[] = [
    ['all', ''],
    ['county', row.county_code],
    ['municipality', row.municipality_code],
    ['category', row.category_slug],
    ['legal_form', row.legal_form],
    ['postal3', row.postal_code.slice(0, 3)],
  ];
  if (row.sni_codes) for (const code of new Set(row.sni_codes.split(','))) keys.push(['sni', code]);
  if (row.lat !== null && row.lng !== null) keys.push(['grid', gridCell(row.lat, row.lng)]);
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
