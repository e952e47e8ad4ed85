// GET /companies parameters (spec §4.1, §8; contract §2.3–2.5), defined once: the server
// validates with SEARCH_QUERY_SCHEMA, exports validate their filters with EXPORT_FILTERS_SCHEMA,
// and the CLI builds one flag per entry of SEARCH_PARAMS.
import { z } from 'zod';
import {
  booleanParam,
  dateParam,
  enumListParam,
  integerParam,
  listParam,
  numberParam,
  textParam,
} from './param-types.js';
import { categoryHint, countyHint, municipalityHint, resolveCategory, resolveCounty, resolveMunicipality } from './place-names.js';
import { fold } from './text.js';
import {
  EMPLOYEES_CLASSES,
  EXPAND_VALUES,
  LEGAL_FORM_ABBREVIATIONS,
  LEGAL_FORMS,
  LIMITS,
  SORT_VALUES,
  STATUSES,
  TRENDS,
  WEBSITE_STATUSES,
} from './values.js';
import { COMPANY_FIELDS } from './company.js';

const statusOrAll = [...STATUSES, 'all'] as const;

const nearParam = z
  .string({ error: 'must be "<lat>,<lng>" in decimal degrees' })
  .transform((v, ctx) => {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(v);
    const lat = m ? Number(m[1]) : NaN;
    const lng = m ? Number(m[2]) : NaN;
    if (!m || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
      ctx.addIssue({ code: 'custom', message: 'must be "<lat>,<lng>" with lat -90..90 and lng -180..180' });
      return z.NEVER;
    }
    return { lat, lng };
  })
  .meta({ description: 'Centre point "<lat>,<lng>" (decimal degrees) for distance search.' });

// Amounts in SEK are whole numbers in the register (bigint on PostgreSQL): a bound past what a
// double holds exactly is refused, not sent on (PostgreSQL refused 1e19 and "1e+21").
const SEK_BOUNDS = { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

/** Filters: what selects companies. Shared by search, exports and (a subset) webhooks. */
export const FILTER_PARAMS = {
  q: textParam('Free text over name, industry and org_nr; prefix match on the last word.', LIMITS.qMaxLength),
  category: listParam('Category slugs (comma-separated); includes subcategories.', resolveCategory, categoryHint),
  sni: listParam('SNI 2007 code prefixes (comma-separated): 1 to 5 digits, or dotted as registers print them (43.320).', (s) => {
    // SCB and most registers print SNI codes as 43.320; the dot only sits after the division.
    const digits = s.replace(/^(\d\d)\.(?=\d{1,3}$)/, '$1');
    return /^\d{1,5}$/.test(digits) ? digits : null;
  }, '1 to 5 digits such as 43320 or 43.320'),
  county: listParam('County names or 2-digit codes (comma-separated).', resolveCounty, countyHint),
  municipality: listParam('Municipality names or 4-digit codes (comma-separated).', resolveMunicipality, municipalityHint),
  city: listParam('Postal cities (comma-separated).', (s) => fold(s), 'a city'),
  postal_code: listParam('Postal code prefixes, 1 to 5 digits (comma-separated).', (s) => {
    const digits = s.replace(/\s/g, '');
    return /^\d{1,5}$/.test(digits) ? digits : null;
  }, '1 to 5 digits'),
  legal_form: enumListParam(
    'Legal forms (comma-separated), or their short forms (AB, EF, HB, KB, EK, BRF, IF, SF, FIL).',
    LEGAL_FORMS,
    Object.fromEntries(Object.entries(LEGAL_FORM_ABBREVIATIONS).map(([form, short]) => [short, form])),
  ),
  status: enumListParam('Company statuses (comma-separated), or all. Default: aktiv.', statusOrAll),
  website_status: enumListParam('Website statuses (comma-separated).', WEBSITE_STATUSES),
  has_financials: booleanParam('Only companies that have (true) or lack (false) financial data.'),
  employees_class: enumListParam('Employee size classes (comma-separated).', EMPLOYEES_CLASSES),
  revenue_min: numberParam('Lowest latest net revenue, SEK.', SEK_BOUNDS),
  revenue_max: numberParam('Highest latest net revenue, SEK.', SEK_BOUNDS),
  profit_min: numberParam('Lowest result, SEK.', SEK_BOUNDS),
  profit_max: numberParam('Highest result, SEK.', SEK_BOUNDS),
  // A fraction, never above 1: 30 meant as 30 % matched nothing, without a word.
  equity_ratio_min: numberParam('Lowest equity ratio as a fraction (0.3 = 30 %), at most 1.', { max: 1 }),
  revenue_growth_min: numberParam('Lowest revenue growth as a fraction.'),
  trend: enumListParam('Revenue trends (comma-separated).', TRENDS),
  f_skatt: booleanParam('Registered for F-tax.'),
  vat_registered: booleanParam('Registered for VAT.'),
  employer_registered: booleanParam('Registered as employer.'),
  verified: booleanParam('Verified by the owner.'),
  registered_from: dateParam('Registered on or after this date.'),
  registered_to: dateParam('Registered on or before this date.'),
  near: nearParam,
  radius_km: numberParam('Radius in km around near. Default 10.', { exclusiveMin: 0, max: LIMITS.radiusMaxKm }),
  exclude_advertising_blocked: booleanParam('Exclude companies with an advertising block (mandatory for marketing use).'),
} as const;

/**
 * Fields a record has only when the query asks for them: named in `fields`, each needs what
 * brings it (they follow near and expand anyway; a client that names them is not refused).
 */
export const CONDITIONAL_FIELDS = { distance_km: 'near', latest_financials: 'expand=latest_financials' } as const;

const fieldsParam = listParam(
  'Company fields to return (comma-separated); id is always included, distance_km with near, latest_financials with expand.',
  (s) => ((COMPANY_FIELDS as readonly string[]).includes(s) || Object.hasOwn(CONDITIONAL_FIELDS, s) ? s : null),
  `one of ${COMPANY_FIELDS.join(', ')}, or with near / expand=latest_financials: ${Object.keys(CONDITIONAL_FIELDS).join(', ')}`,
);

/** `fields` naming a conditional field without what brings it, as a message; null when none does. */
export function conditionalFieldMissing(fields: readonly string[] | undefined, has: { near: boolean; expand: readonly string[] }): string | null {
  if (fields?.includes('distance_km') && !has.near) return `distance_km needs ${CONDITIONAL_FIELDS.distance_km}`;
  if (fields?.includes('latest_financials') && !has.expand.includes('latest_financials')) return `latest_financials needs ${CONDITIONAL_FIELDS.latest_financials}`;
  return null;
}

/** Presentation and paging: what shapes the answer, not which companies are in it. */
export const OUTPUT_PARAMS = {
  sort: enumListParam('Sort order; a leading - means descending. relevance needs q, distance needs near.', SORT_VALUES),
  limit: integerParam('Page size.', LIMITS.limitMin, LIMITS.limitMax),
  cursor: z.string().min(1).max(2000).meta({ description: 'next_cursor of the previous page.' }),
  include_total: booleanParam('Also count all matches (estimated past 1 s).'),
  fields: fieldsParam,
  expand: enumListParam('Include related data.', EXPAND_VALUES),
} as const;

export const SEARCH_PARAMS = { ...FILTER_PARAMS, ...OUTPUT_PARAMS } as const;
export type SearchParamName = keyof typeof SEARCH_PARAMS;
export type FilterName = keyof typeof FILTER_PARAMS;

/** Raw parse results: each key optional, lists as arrays, before defaults. */
type Parsed<T extends Record<string, z.ZodType>> = { [K in keyof T]?: z.output<T[K]> };
export type ParsedFilters = Parsed<typeof FILTER_PARAMS>;

/** The normalised filters every store implementation receives. */
export interface SearchFilters extends Omit<ParsedFilters, 'status' | 'radius_km'> {
  /** null means every status. */
  status: string[] | null;
  radius_km: number;
}

export interface SearchQuery {
  filters: SearchFilters;
  sort: { key: string; descending: boolean };
  limit: number;
  cursor?: string;
  include_total: boolean;
  fields?: string[];
  expand: string[];
}

type RuleContext = { value: ParsedFilters & Parsed<typeof OUTPUT_PARAMS>; issues: z.core.$RefinementCtx };

function crossRules({ value: v, issues }: RuleContext): void {
  const fail = (param: string, message: string) => issues.addIssue({ code: 'custom', path: [param], message });
  if (v.radius_km !== undefined && v.near === undefined) fail('radius_km', 'needs near');
  for (const [min, max] of [
    ['revenue_min', 'revenue_max'],
    ['profit_min', 'profit_max'],
  ] as const) {
    const lo = v[min];
    const hi = v[max];
    if (lo !== undefined && hi !== undefined && lo > hi) fail(min, `must not be above ${max}`);
  }
  if (v.registered_from && v.registered_to && v.registered_from > v.registered_to) {
    fail('registered_from', 'must not be after registered_to');
  }
  if (v.sort) {
    if (v.sort.length > 1) fail('sort', 'takes one value');
    const key = v.sort[0].replace(/^-/, '');
    if (key === 'relevance' && v.q === undefined) fail('sort', 'relevance needs q');
    if (key === 'distance' && v.near === undefined) fail('sort', 'distance needs near');
  }
  if (v.expand && v.expand.length > 1) fail('expand', 'takes one value');
  const missing = conditionalFieldMissing(v.fields, { near: v.near !== undefined, expand: v.expand ?? [] });
  if (missing) fail('fields', missing);
}

export const FILTERS_SCHEMA = z
  .strictObject(FILTER_PARAMS)
  .partial()
  .superRefine((value, issues) => crossRules({ value, issues }));

export const SEARCH_QUERY_SCHEMA = z
  .strictObject(SEARCH_PARAMS)
  .partial()
  .superRefine((value, issues) => crossRules({ value, issues }));

/** Applies the defaults of spec §4.1 and contract §2.5 to validated filters. */
export function normalizeFilters(p: ParsedFilters, defaults: { excludeAdvertisingBlocked?: boolean } = {}): SearchFilters {
  const { status, radius_km, ...rest } = p;
  return {
    ...rest,
    status: status === undefined ? ['aktiv'] : status.includes('all') ? null : status,
    radius_km: radius_km ?? LIMITS.radiusDefaultKm,
    exclude_advertising_blocked: p.exclude_advertising_blocked ?? defaults.excludeAdvertisingBlocked,
  };
}

export function toSearchQuery(p: z.output<typeof SEARCH_QUERY_SCHEMA>): SearchQuery {
  const { sort, limit, cursor, include_total, fields, expand, ...filters } = p;
  const sortValue = sort?.[0] ?? (filters.q !== undefined ? 'relevance' : 'name');
  return {
    filters: normalizeFilters(filters),
    sort: { key: sortValue.replace(/^-/, ''), descending: sortValue.startsWith('-') },
    limit: limit ?? LIMITS.limitDefault,
    cursor,
    include_total: include_total ?? false,
    fields,
    expand: expand ?? [],
  };
}
