// The company record (spec §2.1, contract §2.3) as the API returns it.
import { z } from 'zod';
import { EMPLOYEES_CLASSES, LEGAL_FORMS, STATUSES, TRENDS, WEBSITE_STATUSES } from './values.js';

export const LatestFinancialsSchema = z.object({
  fiscal_year: z.number().int(),
  period_start: z.string(),
  period_end: z.string(),
  net_revenue: z.number().int(),
  profit: z.number().int(),
  equity_ratio: z.number().nullable(),
  total_assets: z.number().int(),
  employees: z.number().int(),
  currency: z.literal('SEK'),
});
export type LatestFinancials = z.infer<typeof LatestFinancialsSchema>;

export const CompanySchema = z.object({
  id: z.string(),
  org_nr: z.string().regex(/^\d{6}-\d{4}$/),
  name: z.string(),
  legal_form: z.enum(LEGAL_FORMS),
  status: z.enum(STATUSES),
  address: z.object({ street: z.string(), postal_code: z.string().regex(/^\d{3} \d{2}$/), city: z.string() }),
  municipality: z.string(),
  municipality_code: z.string().regex(/^\d{4}$/),
  county: z.string(),
  county_code: z.string().regex(/^\d{2}$/),
  category: z.object({ slug: z.string(), name: z.string() }),
  sni_codes: z.array(z.string().regex(/^\d{5}$/)),
  website: z.string().nullable(),
  website_status: z.enum(WEBSITE_STATUSES),
  employees_class: z.enum(EMPLOYEES_CLASSES),
  trend: z.enum(TRENDS),
  revenue: z.number().int().nullable(),
  profit: z.number().int().nullable(),
  equity_ratio: z.number().nullable(),
  revenue_growth: z.number().nullable(),
  has_financials: z.boolean(),
  f_skatt: z.boolean(),
  vat_registered: z.boolean(),
  employer_registered: z.boolean(),
  verified: z.boolean(),
  advertising_blocked: z.boolean(),
  registration_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  location: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  updated_at: z.string(),
  distance_km: z.number().optional(),
  latest_financials: LatestFinancialsSchema.nullable().optional(),
});
export type Company = z.infer<typeof CompanySchema>;

/** Fields a client may name in `fields` (the conditional distance_km and latest_financials follow near and expand). */
export const COMPANY_FIELDS = [
  'id',
  'org_nr',
  'name',
  'legal_form',
  'status',
  'address',
  'municipality',
  'municipality_code',
  'county',
  'county_code',
  'category',
  'sni_codes',
  'website',
  'website_status',
  'employees_class',
  'trend',
  'revenue',
  'profit',
  'equity_ratio',
  'revenue_growth',
  'has_financials',
  'f_skatt',
  'vat_registered',
  'employer_registered',
  'verified',
  'advertising_blocked',
  'registration_date',
  'location',
  'updated_at',
] as const;
export type CompanyField = (typeof COMPANY_FIELDS)[number];

/** Keeps id, the requested fields, and the conditional fields that the query asked for. */
export function pickFields(company: Company, fields: readonly string[] | undefined): Partial<Company> {
  if (!fields) return company;
  const out: Record<string, unknown> = { id: company.id };
  for (const f of fields) out[f] = company[f as CompanyField];
  if (company.distance_km !== undefined) out.distance_km = company.distance_km;
  if (company.latest_financials !== undefined) out.latest_financials = company.latest_financials;
  return out as Partial<Company>;
}

export const CategorySchema = z.object({
  slug: z.string(),
  name: z.string(),
  parent: z.string().nullable(),
  sni_prefixes: z.array(z.string()),
});
