// Validated filters as SQL conditions over `companies c`, with the meaning of
// src/store/sqlite/search/predicates.ts (one filter, one condition; values always bound).
// Which index PostgreSQL may use is steered by how a condition is written: `near` comes in two
// spellings, one that the spatial index answers and one that only tests rows in hand, so the
// planner here (search/near.ts) can choose between a walk in sort order and the box.
import type { SearchFilters } from '../../../core/search-params.js';
import { EMPLOYEES_CLASSES } from '../../../core/values.js';
import { descendantSlugs } from '../../../reference/categories.js';
import { boundingBox } from '../../sqlite/search/geo-math.js';
import { prefixEnd } from '../../sqlite/search/predicates.js';
import { parseTextQuery, type TextQuery } from '../../sqlite/search/text-query.js';
import { sniFilterKeys } from '../sni-keys.js';
import { and, placeholders, type Sql, sql } from './sql.js';
import { textSql, type TextSql } from './text-sql.js';

export interface Condition extends Sql {
  name: string;
}

export interface Conditions {
  list: Condition[];
  text: (TextSql & { query: TextQuery }) | null;
  /** `near` through the spatial index (the box), for plans that start from it. */
  box: Condition | null;
  /** A filter that can never match (q without words). */
  empty: boolean;
}

/** The exact distance from the search's centre, in km. */
export function distanceSql(near: { lat: number; lng: number }): Sql {
  return sql('bolag_distance_km(c.lat, c.lng, ?, ?)', near.lat, near.lng);
}

export function buildConditions(f: SearchFilters): Conditions {
  const list: Condition[] = [];
  const add = (name: string, s: Sql) => list.push({ name, ...s });
  const inList = (name: string, column: string, values: readonly unknown[]) =>
    add(name, sql(`${column} IN (${placeholders(values.length)})`, ...values));

  if (f.status) inList('status', 'c.status', f.status);
  if (f.county) inList('county', 'c.county_code', f.county);
  if (f.municipality) inList('municipality', 'c.municipality_code', f.municipality);
  if (f.city) inList('city', 'c.city_folded', f.city);
  if (f.legal_form) inList('legal_form', 'c.legal_form', f.legal_form);
  if (f.category) inList('category', 'c.category_slug', [...new Set(f.category.flatMap(descendantSlugs))]);
  if (f.postal_code) {
    add('postal_code', {
      sql: f.postal_code.map(() => '(c.postal_code >= ? AND c.postal_code < ?)').join(' OR '),
      params: f.postal_code.flatMap((p) => [p, prefixEnd(p)]),
    });
  }
  if (f.sni) add('sni', sql('c.sni && ?::text[]', `{${sniFilterKeys(f.sni).join(',')}}`));
  if (f.website_status) inList('website_status', 'c.website_status', f.website_status);
  if (f.trend) inList('trend', 'c.trend', f.trend);
  if (f.employees_class) inList('employees_class', 'c.employees_rank', f.employees_class.map((e) => EMPLOYEES_CLASSES.indexOf(e as never)));
  for (const flag of ['has_financials', 'f_skatt', 'vat_registered', 'employer_registered', 'verified'] as const) {
    const value = f[flag];
    if (value !== undefined) add(flag, sql(`c.${flag} = ?`, value ? 1 : 0));
  }
  if (f.exclude_advertising_blocked) add('exclude_advertising_blocked', sql('c.advertising_blocked = 0'));

  // Whole SEK: a fractional bound is the next whole number inside it, so the bigint column is
  // compared with a bigint (and its index serves).
  const range = (name: string, column: string, lo: number | string | undefined, hi: number | string | undefined, whole = false) => {
    const parts: Sql[] = [];
    if (lo !== undefined) parts.push(sql(`c.${column} >= ?`, whole ? Math.ceil(Number(lo)) : lo));
    if (hi !== undefined) parts.push(sql(`c.${column} <= ?`, whole ? Math.floor(Number(hi)) : hi));
    if (parts.length) add(name, and(parts));
  };
  range('revenue', 'revenue', f.revenue_min, f.revenue_max, true);
  range('profit', 'profit', f.profit_min, f.profit_max, true);
  range('equity_ratio', 'equity_ratio', f.equity_ratio_min, undefined);
  range('revenue_growth', 'revenue_growth', f.revenue_growth_min, undefined);
  range('registered', 'registration_date', f.registered_from, f.registered_to);

  let box: Condition | null = null;
  if (f.near) {
    const b = boundingBox(f.near.lat, f.near.lng, f.radius_km);
    const d = distanceSql(f.near);
    add('near', {
      sql: `c.lat >= ? AND c.lat <= ? AND c.lng >= ? AND c.lng <= ? AND ${d.sql} <= ?`,
      params: [b.minLat, b.maxLat, b.minLng, b.maxLng, ...d.params, f.radius_km],
    });
    box = { name: 'near-box', ...sql('point(c.lng, c.lat) <@ box(point(?, ?), point(?, ?))', b.minLng, b.minLat, b.maxLng, b.maxLat) };
  }

  let text: Conditions['text'] = null;
  let empty = false;
  if (f.q !== undefined) {
    const query = parseTextQuery(f.q);
    if (query.words.length === 0) empty = true;
    else {
      text = { ...textSql(query), query };
      add('q', and([text.candidates, text.match]));
    }
  }
  return { list, text, box, empty };
}

/** Every condition, for plans that test each row (slices, streams, counts). */
export function allConditions(c: Conditions, opts: { box?: boolean } = {}): Sql {
  if (c.empty) return sql('false');
  return and([...c.list, ...(opts.box && c.box ? [c.box] : [])]);
}
