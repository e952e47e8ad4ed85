// Turns validated search filters into a WHERE clause over `companies c`. Values always go in
// as bound parameters; only fixed column names and placeholders are written into the SQL.
import type { SearchFilters } from '../../core/search-params.js';
import { EMPLOYEES_CLASSES } from '../../core/values.js';
import { descendantSlugs } from '../../reference/categories.js';

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

const KM_PER_DEG_LAT = 111.32;

/** FTS5 query for free text: every word must match, the last as a prefix; an org nr as one token. */
export function ftsQuery(q: string): string | null {
  const orgNr = /^\s*(\d{6})-?(\d{4})\s*$/.exec(q);
  if (orgNr) return `"${orgNr[1]}${orgNr[2]}"`;
  const words = q.match(/[\p{L}\p{N}]+/gu);
  if (!words) return null;
  return words.map((w, i) => (i === words.length - 1 ? `"${w}"*` : `"${w}"`)).join(' ');
}

/** The exclusive upper bound of a string prefix range: '62' → '63', '69' → '6:'. */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** A bounding box around a point, for the R*Tree prefilter before the exact distance. */
export function boundingBox(lat: number, lng: number, radiusKm: number) {
  const dLat = radiusKm / KM_PER_DEG_LAT;
  const dLng = radiusKm / (KM_PER_DEG_LAT * Math.max(0.01, Math.cos((Math.max(Math.abs(lat) - dLat, 0) * Math.PI) / 180)));
  return { minLat: lat - dLat, maxLat: lat + dLat, minLng: lng - dLng, maxLng: lng + dLng };
}

export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad;
  const dLng = (lng2 - lng1) * toRad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface FilterOptions {
  /** Leave out the full-text condition (when the query drives from the FTS index itself). */
  skipText?: boolean;
  /** Leave out the spatial prefilter (when the query drives from the R*Tree itself). */
  skipGeoPrefilter?: boolean;
}

export function filterSql(f: SearchFilters, opts: FilterOptions = {}): SqlFragment {
  const where: string[] = [];
  const params: unknown[] = [];
  const inList = (column: string, values: readonly unknown[]) => {
    where.push(`${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  const ranges = (column: string, prefixes: readonly string[]) => {
    where.push(`(${prefixes.map(() => `(${column} >= ? AND ${column} < ?)`).join(' OR ')})`);
    for (const p of prefixes) params.push(p, prefixEnd(p));
  };

  if (f.q !== undefined && !opts.skipText) {
    const match = ftsQuery(f.q);
    if (match === null) where.push('0');
    else {
      where.push('c.rowid IN (SELECT rowid FROM companies_fts WHERE companies_fts MATCH ?)');
      params.push(match);
    }
  }
  if (f.status) inList('c.status', f.status);
  if (f.county) inList('c.county_code', f.county);
  if (f.municipality) inList('c.municipality_code', f.municipality);
  if (f.city) inList('c.city_folded', f.city);
  if (f.postal_code) ranges('c.postal_code', f.postal_code);
  if (f.legal_form) inList('c.legal_form', f.legal_form);
  if (f.category) inList('c.category_slug', [...new Set(f.category.flatMap(descendantSlugs))]);
  if (f.sni) {
    where.push(
      `c.rowid IN (SELECT company_rowid FROM company_sni WHERE ${f.sni.map(() => '(code >= ? AND code < ?)').join(' OR ')})`,
    );
    for (const p of f.sni) params.push(p, prefixEnd(p));
  }
  if (f.website_status) inList('c.website_status', f.website_status);
  if (f.trend) inList('c.trend', f.trend);
  if (f.employees_class) inList('c.employees_rank', f.employees_class.map((e) => EMPLOYEES_CLASSES.indexOf(e as never)));
  const flags = ['has_financials', 'f_skatt', 'vat_registered', 'employer_registered', 'verified'] as const;
  for (const flag of flags) {
    if (f[flag] !== undefined) {
      where.push(`c.${flag} = ?`);
      params.push(f[flag] ? 1 : 0);
    }
  }
  if (f.exclude_advertising_blocked) where.push('c.advertising_blocked = 0');
  const bounds = [
    ['revenue_min', 'c.revenue >= ?'],
    ['revenue_max', 'c.revenue <= ?'],
    ['profit_min', 'c.profit >= ?'],
    ['profit_max', 'c.profit <= ?'],
    ['equity_ratio_min', 'c.equity_ratio >= ?'],
    ['revenue_growth_min', 'c.revenue_growth >= ?'],
    ['registered_from', 'c.registration_date >= ?'],
    ['registered_to', 'c.registration_date <= ?'],
  ] as const;
  for (const [key, sql] of bounds) {
    if (f[key] !== undefined) {
      where.push(sql);
      params.push(f[key]);
    }
  }
  if (f.near) {
    if (!opts.skipGeoPrefilter) {
      const b = boundingBox(f.near.lat, f.near.lng, f.radius_km);
      where.push('c.rowid IN (SELECT rowid FROM companies_geo WHERE min_lat >= ? AND max_lat <= ? AND min_lng >= ? AND max_lng <= ?)');
      params.push(b.minLat, b.maxLat, b.minLng, b.maxLng);
    }
    where.push('distance_km(c.lat, c.lng, ?, ?) <= ?');
    params.push(f.near.lat, f.near.lng, f.radius_km);
  }
  return { sql: where.length ? where.join(' AND ') : '1', params };
}
