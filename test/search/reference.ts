// The meaning of every GET /companies filter and sort, written again plainly over the whole
// register in memory, from the contract (§2.3–2.5) rather than from the search code: the tests
// compare the server's answers with these.
import type { Company } from '../../src/core/company.js';
import { resolveCategory, resolveCounty, resolveMunicipality } from '../../src/core/place-names.js';
import { fold } from '../../src/core/text.js';
import { EMPLOYEES_CLASSES } from '../../src/core/values.js';
import { CATEGORIES, descendantSlugs } from '../../src/reference/categories.js';
import { sniName } from '../../src/reference/sni.js';

export type Params = Record<string, string>;

const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);
const bool = (v: string) => v === 'true' || v === '1';
const words = (s: string) => fold(s).match(/[\p{L}\p{N}]+/gu) ?? [];

export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** 0 = no match; else the relevance tier of text-query.ts's definition, restated. */
export function textTier(c: Company, q: string): number {
  // An org nr with its hyphen is one number (`556009-43` a prefix of 5560094384).
  const qw = words(q.replace(/(?<!\p{N})(\d{6})-(\d{1,4})(?!\p{N})/gu, '$1$2'));
  if (qw.length === 0) return 0;
  const name = words(c.name);
  const org = c.org_nr.replace('-', '');
  const orgWords = [org, org.slice(0, 6), org.slice(6)];
  const categoryName = CATEGORIES.find((x) => x.slug === c.category.slug)?.name ?? '';
  const industry = words([categoryName, ...c.sni_codes.map((s) => sniName(s) ?? '')].join(' '));
  let exact = true;
  let inName = true;
  for (let i = 0; i < qw.length; i++) {
    const w = qw[i];
    const last = i === qw.length - 1;
    const digits = /^\d+$/.test(w);
    if (name.includes(w) || orgWords.includes(w)) continue;
    exact = false;
    if (last && (digits ? org.startsWith(w) : name.some((n) => n.startsWith(w)))) continue;
    inName = false;
    if (industry.includes(w) || (last && !digits && industry.some((n) => n.startsWith(w)))) continue;
    return 0;
  }
  const folded = fold(q).replace(/\s+/g, ' ');
  if (inName && fold(c.name).startsWith(folded)) return 1;
  return exact ? 2 : inName ? 3 : 4;
}

export function matches(c: Company, p: Params): boolean {
  const status = p.status ? list(p.status).map(fold) : ['aktiv'];
  if (!status.includes('all') && !status.includes(fold(c.status))) return false;
  if (p.q !== undefined && textTier(c, p.q) === 0) return false;
  if (p.county && !list(p.county).map(resolveCounty).includes(c.county_code)) return false;
  if (p.municipality && !list(p.municipality).map(resolveMunicipality).includes(c.municipality_code)) return false;
  if (p.city && !list(p.city).map(fold).includes(fold(c.address.city))) return false;
  if (p.postal_code && !list(p.postal_code).some((x) => c.address.postal_code.replace(' ', '').startsWith(x.replace(/\s/g, '')))) return false;
  if (p.legal_form && !list(p.legal_form).map(fold).includes(fold(c.legal_form))) return false;
  if (p.category && !list(p.category).flatMap((s) => descendantSlugs(resolveCategory(s) ?? s)).includes(c.category.slug)) return false;
  if (p.sni && !list(p.sni).some((x) => c.sni_codes.some((code) => code.startsWith(x)))) return false;
  if (p.website_status && !list(p.website_status).map(fold).includes(fold(c.website_status))) return false;
  if (p.trend && !list(p.trend).map(fold).includes(fold(c.trend))) return false;
  if (p.employees_class && !list(p.employees_class).includes(c.employees_class)) return false;
  for (const flag of ['has_financials', 'f_skatt', 'vat_registered', 'employer_registered', 'verified'] as const) {
    if (p[flag] !== undefined && c[flag] !== bool(p[flag])) return false;
  }
  if (p.exclude_advertising_blocked !== undefined && bool(p.exclude_advertising_blocked) && c.advertising_blocked) return false;
  const atLeast = (v: number | null, bound: string | undefined) => bound === undefined || (v !== null && v >= Number(bound));
  const atMost = (v: number | null, bound: string | undefined) => bound === undefined || (v !== null && v <= Number(bound));
  if (!atLeast(c.revenue, p.revenue_min) || !atMost(c.revenue, p.revenue_max)) return false;
  if (!atLeast(c.profit, p.profit_min) || !atMost(c.profit, p.profit_max)) return false;
  if (!atLeast(c.equity_ratio, p.equity_ratio_min) || !atLeast(c.revenue_growth, p.revenue_growth_min)) return false;
  if (p.registered_from && c.registration_date < p.registered_from) return false;
  if (p.registered_to && c.registration_date > p.registered_to) return false;
  if (p.near) {
    const [lat, lng] = p.near.split(',').map(Number);
    if (!c.location || haversine(lat, lng, c.location.lat, c.location.lng) > Number(p.radius_km ?? 10)) return false;
  }
  return true;
}

/** The sort value of a company (relevance: tier, then name in tier 1; distance: km). */
export function sortValue(c: Company, key: string, p: Params): string | number | null {
  switch (key) {
    case 'name':
      return fold(c.name);
    case 'employees_class':
      return EMPLOYEES_CLASSES.indexOf(c.employees_class);
    case 'relevance': {
      const t = textTier(c, p.q);
      return t === 1 ? `1${fold(c.name)}` : String(t);
    }
    case 'distance': {
      const [lat, lng] = p.near.split(',').map(Number);
      return haversine(lat, lng, c.location!.lat, c.location!.lng);
    }
    default:
      return c[key as 'revenue' | 'profit' | 'registration_date' | 'equity_ratio' | 'revenue_growth'];
  }
}

/** Byte order of UTF-8, as SQLite compares text. */
function compareText(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** The expected result of a search: matches, sorted (nulls last both ways, ties by id). */
export function expected(all: readonly Company[], p: Params): Company[] {
  const sort = p.sort ?? (p.q !== undefined ? 'relevance' : 'name');
  const key = sort.replace(/^-/, '');
  const desc = sort.startsWith('-');
  const rows = all.filter((c) => matches(c, p)).map((c) => ({ c, v: sortValue(c, key, p) }));
  rows.sort((a, b) => {
    if (a.v === null || b.v === null) {
      if (a.v !== b.v) return a.v === null ? 1 : -1;
    } else if (a.v !== b.v) {
      const cmp = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : compareText(String(a.v), String(b.v));
      return desc ? -cmp : cmp;
    }
    return a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0;
  });
  return rows.map((r) => r.c);
}
