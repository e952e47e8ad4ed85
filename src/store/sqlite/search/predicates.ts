// Validated filters as predicates. Each has a row check (SQL over `companies c`, values
// bound) that any plan can apply to a row it already has, and, where an index can produce the
// matching rows directly, one or more drivers: the ways a plan can start from this filter
// instead of from the sort order.
import type { SearchFilters } from '../../../core/search-params.js';
import { EMPLOYEES_CLASSES } from '../../../core/values.js';
import { descendantSlugs } from '../../../reference/categories.js';
import { parseTextQuery, type TextQuery, type TextWord } from './text-query.js';
import { boundingBox } from './geo-math.js';
import { countyDriverSql, municipalityDriverSql, PLACE_INDEX } from './place-index.js';
import type { StatKey } from './stats.js';

export interface Sql {
  sql: string;
  params: unknown[];
}

export interface Driver {
  /** For plans and diagnostics: `county`, `q:andersson`, `near`, … */
  name: string;
  /**
   * `index`: `FROM companies c INDEXED BY <index> WHERE <where>`.
   * `rowids`: `FROM companies c NOT INDEXED WHERE c.rowid IN (<rowids>)`.
   */
  kind: 'index' | 'rowids';
  index?: string;
  sql: string;
  params: unknown[];
  /** The index can also narrow to a range of rowids at no extra cost (counting in slices). */
  sliceable: boolean;
  /** Where the statistics hold this driver's row count (search/stats.ts), instead of counting. */
  stat?: StatKey;
}

export interface Predicate {
  name: string;
  check: Sql;
  drivers: Driver[];
  /** A range on this column, usable inside a walk of the column's own index. */
  sortColumn?: string;
  range?: Sql;
}

export interface Predicates {
  list: Predicate[];
  /** The statuses asked for (null: every status), for reading the statistics. */
  status: readonly string[] | null;
  text: TextQuery | null;
  /** A filter that can never match (q without words). */
  empty: boolean;
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * The exclusive upper bound of a string prefix range: '62' → '63', '69' → '6:'. By code point,
 * the order of UTF-8 bytes that both stores compare: raising the last UTF-16 unit turned a
 * trailing U+FFFF into NUL (PostgreSQL refused it) and a surrogate pair into half of one.
 */
export function prefixEnd(prefix: string): string {
  const points = [...prefix];
  while (points.length > 0) {
    let next = points.pop()!.codePointAt(0)! + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
    if (next <= 0x10ffff) return points.join('') + String.fromCodePoint(next);
  }
  // Only U+10FFFF: no string bounds the range; no name holds that code point, so this is enough.
  return prefix + '\u{10ffff}';
}

export function buildPredicates(f: SearchFilters): Predicates {
  const list: Predicate[] = [];
  let empty = false;
  const statusSql = f.status ? { sql: ` AND c.status IN (${placeholders(f.status.length)})`, params: f.status } : { sql: '', params: [] };

  // `seek`: how the index finds the values, when not by `column IN (…)` (place-index.ts).
  const inList = (name: string, column: string, values: readonly unknown[], index?: string, withStatus = false, stat?: StatKey, seek?: Sql & { sliceable: boolean }) => {
    const sql = `${column} IN (${placeholders(values.length)})`;
    const by = seek ?? { sql, params: [...values], sliceable: true };
    const drivers: Driver[] = index
      ? [
          {
            name,
            kind: 'index',
            index,
            sql: withStatus ? by.sql + statusSql.sql : by.sql,
            params: withStatus ? [...by.params, ...statusSql.params] : [...by.params],
            // Entries are (value[, status], rowid): a rowid range is a seek only when every
            // column before it is pinned.
            sliceable: by.sliceable && index !== 'companies_status_name' && (!withStatus || f.status !== null),
            stat,
          },
        ]
      : [];
    list.push({ name, check: { sql, params: [...values] }, drivers });
  };

  if (f.status) inList('status', 'c.status', f.status, 'companies_status_name', false, { dim: 'all', values: [''], byStatus: true });
  // Entries (county, municipality, status): a county's status is tested on its entries, not sought.
  if (f.county) inList('county', 'c.county_code', f.county, PLACE_INDEX, true, { dim: 'county', values: f.county, byStatus: f.status !== null }, { ...countyDriverSql(f.county), sliceable: false });
  if (f.municipality) {
    const seek = { ...municipalityDriverSql(f.municipality, f.county), sliceable: true };
    // Under the counties asked for, the municipality's count in the statistics is only a bound.
    inList('municipality', 'c.municipality_code', f.municipality, PLACE_INDEX, true, f.county ? undefined : { dim: 'municipality', values: f.municipality, byStatus: f.status !== null }, seek);
  }
  if (f.city) inList('city', 'c.city_folded', f.city, 'companies_city');
  if (f.legal_form) inList('legal_form', 'c.legal_form', f.legal_form, 'companies_legal_form', true, { dim: 'legal_form', values: f.legal_form, byStatus: f.status !== null });
  if (f.category) {
    const slugs = [...new Set(f.category.flatMap(descendantSlugs))];
    inList('category', 'c.category_slug', slugs, 'companies_category', true, { dim: 'category', values: slugs, byStatus: f.status !== null });
  }
  if (f.postal_code) {
    const sql = `(${f.postal_code.map(() => '(c.postal_code >= ? AND c.postal_code < ?)').join(' OR ')})`;
    const params = f.postal_code.flatMap((p) => [p, prefixEnd(p)]);
    list.push({
      name: 'postal_code',
      check: { sql, params },
      drivers: [{ name: 'postal_code', kind: 'index', index: 'companies_postal', sql, params, sliceable: false, stat: { dim: 'postal3', prefixes: f.postal_code, byStatus: false } }],
    });
  }
  if (f.sni) {
    // The row's own list (`43210,68203`) answers for a row in hand; company_sni finds rows.
    const check = `(${f.sni.map(() => "instr(',' || c.sni_codes, ',' || ?) > 0").join(' OR ')})`;
    const ranges = f.sni.map(() => '(code >= ? AND code < ?)').join(' OR ');
    list.push({
      name: 'sni',
      check: { sql: check, params: [...f.sni] },
      drivers: [
        {
          name: 'sni',
          kind: 'rowids',
          sql: `SELECT company_rowid FROM company_sni WHERE ${ranges}`,
          params: f.sni.flatMap((p) => [p, prefixEnd(p)]),
          sliceable: false,
          stat: { dim: 'sni', prefixes: f.sni, byStatus: false },
        },
      ],
    });
  }
  if (f.website_status) inList('website_status', 'c.website_status', f.website_status);
  if (f.trend) inList('trend', 'c.trend', f.trend);
  if (f.employees_class) {
    const ranks = f.employees_class.map((e) => EMPLOYEES_CLASSES.indexOf(e as never));
    inList('employees_class', 'c.employees_rank', ranks, 'companies_employees');
    const p = list[list.length - 1];
    p.sortColumn = 'employees_rank';
    p.range = { ...p.check };
  }
  for (const flag of ['has_financials', 'f_skatt', 'vat_registered', 'employer_registered', 'verified'] as const) {
    const value = f[flag];
    if (value !== undefined) list.push({ name: flag, check: { sql: `c.${flag} = ?`, params: [value ? 1 : 0] }, drivers: [] });
  }
  if (f.exclude_advertising_blocked) list.push({ name: 'exclude_advertising_blocked', check: { sql: 'c.advertising_blocked = 0', params: [] }, drivers: [] });

  const range = (name: string, column: string, index: string, lo: unknown, hi: unknown) => {
    if (lo === undefined && hi === undefined) return;
    const parts: string[] = [];
    const params: unknown[] = [];
    if (lo !== undefined) {
      parts.push(`c.${column} >= ?`);
      params.push(lo);
    }
    if (hi !== undefined) {
      parts.push(`c.${column} <= ?`);
      params.push(hi);
    }
    const sql = parts.join(' AND ');
    list.push({
      name,
      check: { sql, params },
      drivers: [{ name, kind: 'index', index, sql, params, sliceable: false }],
      sortColumn: column,
      range: { sql, params },
    });
  };
  range('revenue', 'revenue', 'companies_revenue', f.revenue_min, f.revenue_max);
  range('profit', 'profit', 'companies_profit', f.profit_min, f.profit_max);
  range('equity_ratio', 'equity_ratio', 'companies_equity_ratio', f.equity_ratio_min, undefined);
  range('revenue_growth', 'revenue_growth', 'companies_revenue_growth', f.revenue_growth_min, undefined);
  range('registered', 'registration_date', 'companies_registration_date', f.registered_from, f.registered_to);

  if (f.near) {
    const b = boundingBox(f.near.lat, f.near.lng, f.radius_km);
    list.push({
      name: 'near',
      check: {
        sql: 'c.lat >= ? AND c.lat <= ? AND c.lng >= ? AND c.lng <= ? AND distance_km(c.lat, c.lng, ?, ?) <= ?',
        params: [b.minLat, b.maxLat, b.minLng, b.maxLng, f.near.lat, f.near.lng, f.radius_km],
      },
      drivers: [
        {
          name: 'near',
          kind: 'rowids',
          sql: 'SELECT rowid FROM companies_geo WHERE min_lat >= ? AND max_lat <= ? AND min_lng >= ? AND max_lng <= ?',
          params: [b.minLat, b.maxLat, b.minLng, b.maxLng],
          sliceable: false,
          stat: { dim: 'grid', box: b, byStatus: false },
        },
      ],
    });
  }

  let text: TextQuery | null = null;
  if (f.q !== undefined) {
    text = parseTextQuery(f.q);
    if (text.words.length === 0) empty = true;
    list.push({
      name: 'q',
      check: { sql: 'bolag_tier(?, c.name_sort, c.org_nr, c.category_slug, c.sni_codes, c.description) > 0', params: [text.raw] },
      drivers: textDrivers(text),
    });
  }
  return { list, text, empty, status: f.status };
}

export const FTS_COLUMNS = '{name org_nr}';
/** What the drivers look words up in: the business description (industry column) too. */
const FTS_DRIVER_COLUMNS = '{name industry org_nr}';

/** The full-text phrase of one word: the last word as a prefix, except a number (see wordDriver). */
export function ftsPhrase(w: TextWord, exact = false): string {
  return w.prefix && !w.digits && !exact ? `"${w.text}"*` : `"${w.text}"`;
}

/**
 * A word the full-text index cannot find alone: six or ten digits, the first six or all ten of
 * an org nr, which the index leaves to the org nr's own B-tree (company-row.ts, ftsValues).
 */
export function isOrgNrWord(w: TextWord): boolean {
  return w.digits && (w.text.length === 6 || w.text.length === 10);
}

/**
 * Every word in the name or org nr (the last as a prefix unless `exact`), or null when the index
 * alone cannot say: a number ends the query (a prefix of the org nr), or a word is an org nr's.
 */
export function ftsAllWords(tq: TextQuery, exact: boolean): string | null {
  if (tq.words.some(isOrgNrWord)) return null;
  if (!exact && tq.words.some((w) => w.prefix && w.digits)) return null;
  return `${FTS_COLUMNS} : (${tq.words.map((w) => ftsPhrase(w, exact)).join(' AND ')})`;
}

/**
 * Drivers for q: one per word (the rows that word matches in name, org nr or industry), and
 * the full-text conjunction of all words when no word can match through the industry.
 */
function textDrivers(tq: TextQuery): Driver[] {
  if (tq.words.length === 0) return [];
  const drivers: Driver[] = [];
  const anyIndustry = tq.words.some((w) => w.industry.codes.size > 0 || w.industry.categories.size > 0);
  const all = ftsAllWords(tq, false)?.replace(FTS_COLUMNS, FTS_DRIVER_COLUMNS);
  if (!anyIndustry && all && tq.words.length > 1) {
    drivers.push({ name: 'q:all', kind: 'rowids', sql: 'SELECT rowid FROM companies_fts WHERE companies_fts MATCH ?', params: [all], sliceable: true });
  }
  for (const w of tq.words) drivers.push(wordDriver(w));
  return drivers;
}

function wordDriver(w: TextWord): Driver {
  const parts = ['SELECT rowid FROM companies_fts WHERE companies_fts MATCH ?'];
  const params: unknown[] = [`${FTS_DRIVER_COLUMNS} : ${ftsPhrase(w)}`];
  if ((w.prefix && w.digits) || isOrgNrWord(w)) {
    // A number typed as the last word (a prefix of the org nr), or the first six or all ten
    // digits of one: through the org nr's own index.
    parts.push('SELECT rowid FROM companies WHERE org_nr >= ? AND org_nr < ?');
    params.push(w.text, prefixEnd(w.text));
  }
  if (w.industry.codes.size > 0) {
    parts.push(`SELECT company_rowid FROM company_sni WHERE code IN (${placeholders(w.industry.codes.size)})`);
    params.push(...w.industry.codes);
  }
  if (w.industry.categories.size > 0) {
    parts.push(`SELECT rowid FROM companies WHERE category_slug IN (${placeholders(w.industry.categories.size)})`);
    params.push(...w.industry.categories);
  }
  return { name: `q:${w.text}`, kind: 'rowids', sql: parts.join(' UNION ALL '), params, sliceable: parts.length === 1 };
}

/** All checks joined, for plans that test every row themselves (exports, streams, counts). */
export function allChecks(p: Predicates, skip: ReadonlySet<Predicate> = new Set()): Sql {
  if (p.empty) return { sql: '0', params: [] };
  // The text check runs a function per row: last, after the cheap comparisons.
  const ordered = [...p.list.filter((x) => x.name !== 'q'), ...p.list.filter((x) => x.name === 'q')].filter((x) => !skip.has(x));
  if (ordered.length === 0) return { sql: '1', params: [] };
  return { sql: ordered.map((x) => `(${x.check.sql})`).join(' AND '), params: ordered.flatMap((x) => x.check.params) };
}
