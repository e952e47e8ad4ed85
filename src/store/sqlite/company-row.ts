// Maps between a `companies` row and the API's company record.
import type { Company, LatestFinancials } from '../../core/company.js';
import { companyIdFromRow } from '../../core/company-id.js';
import { formatOrgNr } from '../../core/orgnr.js';
import { categoryName, countyName, municipalityName } from '../../core/place-names.js';
import { fold } from '../../core/text.js';
import { haversineKm } from './search/geo-math.js';
import { EMPLOYEES_CLASSES } from '../../core/values.js';
import { type CompanyInternals, internalsOf, type StoredCompany } from '../import-types.js';

export interface CompanyRow {
  rowid: number;
  id: string;
  org_nr: string;
  name: string;
  name_sort: string;
  legal_form: string;
  status: string;
  street: string;
  postal_code: string;
  city: string;
  city_folded: string;
  municipality_code: string;
  county_code: string;
  category_slug: string;
  sni_codes: string;
  website: string | null;
  website_status: string;
  employees_rank: number;
  trend: string;
  revenue: number | null;
  profit: number | null;
  equity_ratio: number | null;
  revenue_growth: number | null;
  has_financials: number;
  f_skatt: number;
  vat_registered: number;
  employer_registered: number;
  verified: number;
  advertising_blocked: number;
  registration_date: string;
  lat: number | null;
  lng: number | null;
  latest_financials: string | null;
  updated_at: string;
}

export const COMPANY_COLUMNS = [
  'rowid', 'id', 'org_nr', 'name', 'name_sort', 'legal_form', 'status', 'street', 'postal_code', 'city', 'city_folded',
  'municipality_code', 'county_code', 'category_slug', 'sni_codes', 'website', 'website_status', 'employees_rank',
  'trend', 'revenue', 'profit', 'equity_ratio', 'revenue_growth', 'has_financials', 'f_skatt', 'vat_registered',
  'employer_registered', 'verified', 'advertising_blocked', 'registration_date', 'lat', 'lng', 'latest_financials',
  'updated_at',
] as const;

/**
 * Copies a row's values into `into` in COMPANY_COLUMNS' order, for a positional INSERT. Compiled
 * once with the property names written out: a loop over the column names is a megamorphic keyed
 * load per value, a tenth of what the seeder's rows threads spend beside the generator itself.
 */
export const companyRowValues = new Function(
  'r',
  'into',
  `${COMPANY_COLUMNS.map((c, i) => `into[${i}] = r.${c};`).join(' ')} return into;`,
) as (row: CompanyRow, into: unknown[]) => unknown[];

/** Columns only imports read and write (CompanyInternals), never part of the API record. */
export const INTERNAL_COLUMNS = ['description', 'sources', 'bolagsverket_standing', 'scb_activity', 'bolagsverket_hash', 'scb_hash'] as const;

/** The columns a field of the record (or an import's internal) is stored in, where not its own name. */
const COLUMNS_OF_FIELD: Readonly<Record<string, readonly string[]>> = {
  name: ['name', 'name_sort'],
  address: ['street', 'postal_code', 'city', 'city_folded'],
  municipality: ['municipality_code'],
  county: ['county_code'],
  category: ['category_slug'],
  employees_class: ['employees_rank'],
  location: ['lat', 'lng'],
};

/** The columns these fields are stored in. */
export function columnsOfFields(fields: readonly string[]): Set<string> {
  return new Set(fields.flatMap((f) => COLUMNS_OF_FIELD[f] ?? [f]));
}

/** The SELECT list for reading companies (latest_financials only when expanded). */
export function companySelectList(alias: string, expand: boolean): string {
  return COMPANY_COLUMNS.filter((c) => expand || c !== 'latest_financials')
    .map((c) => `${alias}.${c}`)
    .join(', ');
}

/** Columns only search needs (sort keys), not read for a record. */
const SEARCH_ONLY = new Set<string>(['name_sort', 'city_folded']);

export interface CompanyArrayReader {
  /** The SELECT list over `companies c`, to run with `.raw(true)`. */
  select: string;
  /** `[v0, v1, …] → { rowid: v0, id: v1, … }` */
  build(values: unknown[]): CompanyRow;
}

function arrayReader(expand: boolean): CompanyArrayReader {
  const columns = COMPANY_COLUMNS.filter((c) => !SEARCH_ONLY.has(c) && (expand || c !== 'latest_financials'));
  return {
    select: columns.map((c) => `c.${c}`).join(', '),
    // One object literal of a fixed shape, compiled once: far cheaper than the driver
    // setting each property of each row object.
    build: new Function('v', `return { ${columns.map((c, i) => `${c}: v[${i}]`).join(', ')} };`) as (v: unknown[]) => CompanyRow,
  };
}

const READERS = { plain: arrayReader(false), expanded: arrayReader(true) };

/** How hot paths (search pages, export slices) read company rows: as arrays, built here. */
export function companyArrayReader(expand: boolean): CompanyArrayReader {
  return expand ? READERS.expanded : READERS.plain;
}

/** Distance from a search's centre, as records carry it (km, three decimals). */
export function distanceKmFrom(near: { lat: number; lng: number }, row: Pick<CompanyRow, 'lat' | 'lng'>): number | undefined {
  if (row.lat === null || row.lng === null) return undefined;
  return Math.round(haversineKm(near.lat, near.lng, row.lat, row.lng) * 1000) / 1000;
}

export function rowToCompany(r: CompanyRow, opts: { expand?: boolean } = {}): Company {
  const company: Company = {
    id: r.id,
    org_nr: formatOrgNr(r.org_nr),
    name: r.name,
    legal_form: r.legal_form as Company['legal_form'],
    status: r.status as Company['status'],
    address: { street: r.street, postal_code: r.postal_code ? `${r.postal_code.slice(0, 3)} ${r.postal_code.slice(3)}` : '', city: r.city },
    municipality: municipalityName(r.municipality_code),
    municipality_code: r.municipality_code,
    county: countyName(r.county_code),
    county_code: r.county_code,
    category: { slug: r.category_slug, name: categoryName(r.category_slug) },
    sni_codes: r.sni_codes ? r.sni_codes.split(',') : [],
    website: r.website,
    website_status: r.website_status as Company['website_status'],
    employees_class: EMPLOYEES_CLASSES[r.employees_rank],
    trend: r.trend as Company['trend'],
    revenue: r.revenue,
    profit: r.profit,
    equity_ratio: r.equity_ratio,
    revenue_growth: r.revenue_growth,
    has_financials: r.has_financials === 1,
    f_skatt: r.f_skatt === 1,
    vat_registered: r.vat_registered === 1,
    employer_registered: r.employer_registered === 1,
    verified: r.verified === 1,
    advertising_blocked: r.advertising_blocked === 1,
    registration_date: r.registration_date,
    location: r.lat === null || r.lng === null ? null : { lat: r.lat, lng: r.lng },
    updated_at: r.updated_at,
  };
  if (opts.expand) {
    company.latest_financials = r.latest_financials ? (JSON.parse(r.latest_financials) as LatestFinancials) : null;
  }
  return company;
}

/** Folded city names by name: a register has a few thousand towns and a loader folds one a row. */
const FOLDED_CITIES = new Map<string, string>();

function foldCity(city: string): string {
  let folded = FOLDED_CITIES.get(city);
  if (folded === undefined) {
    if (FOLDED_CITIES.size >= 50_000) FOLDED_CITIES.clear(); // a bound, should a file hold nonsense towns
    FOLDED_CITIES.set(city, (folded = fold(city)));
  }
  return folded;
}

/** The row for a company record (import and seed); `rowid` decides `id` when the record has none. */
export function companyToRow(c: Company, rowid: number): CompanyRow {
  return {
    rowid,
    id: c.id || companyIdFromRow(rowid),
    org_nr: c.org_nr.replace('-', ''),
    name: c.name,
    name_sort: fold(c.name),
    legal_form: c.legal_form,
    status: c.status,
    street: c.address.street,
    postal_code: c.address.postal_code.replace(/\s/g, ''),
    city: c.address.city,
    city_folded: foldCity(c.address.city),
    municipality_code: c.municipality_code,
    county_code: c.county_code,
    category_slug: c.category.slug,
    sni_codes: c.sni_codes.join(','),
    website: c.website,
    website_status: c.website_status,
    employees_rank: Math.max(0, EMPLOYEES_CLASSES.indexOf(c.employees_class)),
    trend: c.trend,
    revenue: c.revenue,
    profit: c.profit,
    equity_ratio: c.equity_ratio,
    revenue_growth: c.revenue_growth,
    has_financials: c.has_financials ? 1 : 0,
    f_skatt: c.f_skatt ? 1 : 0,
    vat_registered: c.vat_registered ? 1 : 0,
    employer_registered: c.employer_registered ? 1 : 0,
    verified: c.verified ? 1 : 0,
    advertising_blocked: c.advertising_blocked ? 1 : 0,
    registration_date: c.registration_date,
    lat: c.location?.lat ?? null,
    lng: c.location?.lng ?? null,
    latest_financials: c.latest_financials ? JSON.stringify(c.latest_financials) : null,
    updated_at: c.updated_at,
  };
}

/**
 * The text the full-text index holds for a company: its name, its business description (from
 * Bolagsverket's file; empty otherwise) and the last four digits of its org nr. The first six and
 * all ten are found through the org nr's own B-tree (search/predicates.ts, isOrgNrWord): as
 * index words, 1.2 million of them nearly all unique, they cost 2.7 CPU-s of every seed.
 * Industry words are also matched through SNI and category names (search/text-query.ts).
 */
export function ftsValues(row: CompanyRow, description = ''): [string, string, string] {
  return [row.name, description, row.org_nr.slice(6)];
}

/** A stored row as the planners see it: the record (financials expanded) with its internals. */
export function toStoredCompany(row: CompanyRow & CompanyInternals): StoredCompany {
  const company: StoredCompany = rowToCompany(row, { expand: true }) as Company;
  company.internal = internalsOf(row);
  return company;
}
