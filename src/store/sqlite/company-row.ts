// Maps between a `companies` row and the API's company record.
import type { Company, LatestFinancials } from '../../core/company.js';
import { companyIdFromRow } from '../../core/company-id.js';
import { formatOrgNr } from '../../core/orgnr.js';
import { categoryName, countyName, municipalityName } from '../../core/place-names.js';
import { fold } from '../../core/text.js';
import { EMPLOYEES_CLASSES } from '../../core/values.js';

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

/** The SELECT list for reading companies (latest_financials only when expanded). */
export function companySelectList(alias: string, expand: boolean): string {
  return COMPANY_COLUMNS.filter((c) => expand || c !== 'latest_financials')
    .map((c) => `${alias}.${c}`)
    .join(', ');
}

/** COMPANY_COLUMNS in order, latest_financials as NULL unless expanded, so positions are fixed for rowFromArray. */
export function companyArraySelectList(alias: string, expand: boolean): string {
  return COMPANY_COLUMNS.map((c) => (c === 'latest_financials' && !expand ? 'NULL' : `${alias}.${c}`)).join(', ');
}

/**
 * A row read with `.raw(true)` (companyArraySelectList). Building the object here, with one
 * literal shape, is markedly cheaper than the driver setting 34 properties row by row.
 */
export function rowFromArray(a: any[]): CompanyRow {
  return {
    rowid: a[0],
    id: a[1],
    org_nr: a[2],
    name: a[3],
    name_sort: a[4],
    legal_form: a[5],
    status: a[6],
    street: a[7],
    postal_code: a[8],
    city: a[9],
    city_folded: a[10],
    municipality_code: a[11],
    county_code: a[12],
    category_slug: a[13],
    sni_codes: a[14],
    website: a[15],
    website_status: a[16],
    employees_rank: a[17],
    trend: a[18],
    revenue: a[19],
    profit: a[20],
    equity_ratio: a[21],
    revenue_growth: a[22],
    has_financials: a[23],
    f_skatt: a[24],
    vat_registered: a[25],
    employer_registered: a[26],
    verified: a[27],
    advertising_blocked: a[28],
    registration_date: a[29],
    lat: a[30],
    lng: a[31],
    latest_financials: a[32],
    updated_at: a[33],
  };
}

export function rowToCompany(r: CompanyRow, opts: { expand?: boolean } = {}): Company {
  const company: Company = {
    id: r.id,
    org_nr: formatOrgNr(r.org_nr),
    name: r.name,
    legal_form: r.legal_form as Company['legal_form'],
    status: r.status as Company['status'],
    address: { street: r.street, postal_code: `${r.postal_code.slice(0, 3)} ${r.postal_code.slice(3)}`, city: r.city },
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
    city_folded: fold(c.address.city),
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
 * The text the full-text index holds for a company: its name and org nr. The industry column
 * stays empty: industry words are matched through SNI and category names (search/text-query.ts).
 */
export function ftsValues(row: CompanyRow): [string, string, string] {
  return [row.name, '', `${row.org_nr} ${row.org_nr.slice(0, 6)}-${row.org_nr.slice(6)}`];
}
