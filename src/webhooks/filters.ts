// Webhook filters (contract §2.7): validated at creation with the search parameters' own
// rules, and matched against an outbox event's `subject` with search semantics — case- and
// diacritic-insensitive, county and municipality by name or code, category with its
// subcategories, sni and postal_code as prefixes, org_nr with or without the hyphen.
import { ApiError } from '../core/errors.js';
import { isValidOrgNr, normalizeOrgNr } from '../core/orgnr.js';
import { resolveCategory, resolveCounty, resolveMunicipality } from '../core/place-names.js';
import { FILTER_PARAMS } from '../core/search-params.js';
import { fold, quoted, splitList } from '../core/text.js';
import { WEBHOOK_FILTER_KEYS } from '../core/webhooks.js';
import { descendantSlugs } from '../reference/categories.js';

export type WebhookFilterKey = (typeof WEBHOOK_FILTER_KEYS)[number];
export type WebhookFilters = Partial<Record<WebhookFilterKey, string[]>>;
export type EventSubject = Record<string, string | string[]>;

/** Event types that describe a company and so are restricted by filters. */
export function isCompanyEvent(type: string): boolean {
  return type.startsWith('company.') || type === 'financials.published';
}

const orgNrItem = (s: string): string | null => normalizeOrgNr(s);

/** The canonical form of each filter value, or null to reject it. */
function canonicalValues(key: WebhookFilterKey, values: readonly string[]): { ok: true; values: string[] } | { ok: false; message: string } {
  if (key === 'org_nr') {
    const out: string[] = [];
    for (const item of values.flatMap(splitList)) {
      const digits = orgNrItem(item);
      if (digits === null) return { ok: false, message: `has an unknown value ${quoted(item)}; expected an org_nr NNNNNN-NNNN` };
      // No company in the register has a number whose check digit is wrong: a typo, never a match.
      if (!isValidOrgNr(digits)) return { ok: false, message: `has ${quoted(item)}, whose check digit is wrong (a typo?); no organisation number has it` };
      if (!out.includes(digits)) out.push(digits);
    }
    return out.length ? { ok: true, values: out } : { ok: false, message: 'must not be empty' };
  }
  const parsed = FILTER_PARAMS[key].safeParse([...values]);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'is invalid' };
  return { ok: true, values: parsed.data as string[] };
}

/**
 * Checks filters as given and returns them tidied (items split on commas and trimmed), in the
 * user's own spelling: the record shows what was asked for; matching canonicalises.
 */
export function validateFilters(filters: WebhookFilters): WebhookFilters {
  const out: WebhookFilters = {};
  for (const key of WEBHOOK_FILTER_KEYS) {
    const values = filters[key];
    if (values === undefined) continue;
    const result = canonicalValues(key, values);
    if (!result.ok) throw new ApiError('invalid_body', `Invalid filters.${key}: ${result.message}.`, `filters.${key}`);
    out[key] = [...new Set(values.flatMap(splitList))];
  }
  return out;
}

type Matcher = (subject: EventSubject) => boolean;

const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const digitsOnly = (s: string): string => s.replace(/\D/g, '');

function subjectValues(subject: EventSubject, ...keys: string[]): string[] {
  return keys.flatMap((k) => asList(subject[k])).filter((v): v is string => typeof v === 'string');
}

function oneOf(wanted: Set<string>, got: Iterable<string | null>): boolean {
  for (const g of got) if (g !== null && wanted.has(g)) return true;
  return false;
}

function prefixOf(prefixes: readonly string[], got: Iterable<string>): boolean {
  for (const g of got) if (prefixes.some((p) => g.startsWith(p))) return true;
  return false;
}

function keyMatcher(key: WebhookFilterKey, canonical: string[]): Matcher {
  switch (key) {
    case 'county': {
      const wanted = new Set(canonical);
      return (s) => oneOf(wanted, subjectValues(s, 'county', 'county_code').map(resolveCounty));
    }
    case 'municipality': {
      const wanted = new Set(canonical);
      return (s) => oneOf(wanted, subjectValues(s, 'municipality', 'municipality_code').map(resolveMunicipality));
    }
    case 'category': {
      const wanted = new Set(canonical.flatMap(descendantSlugs));
      return (s) => oneOf(wanted, subjectValues(s, 'category', 'category_slug').map((v) => resolveCategory(v) ?? fold(v)));
    }
    case 'postal_code':
      return (s) => prefixOf(canonical, subjectValues(s, 'postal_code').map(digitsOnly));
    case 'sni':
      return (s) => prefixOf(canonical, subjectValues(s, 'sni', 'sni_codes').map(digitsOnly));
    case 'org_nr': {
      const wanted = new Set(canonical);
      return (s) => oneOf(wanted, subjectValues(s, 'org_nr').map((v) => normalizeOrgNr(v)));
    }
    case 'status': {
      if (canonical.includes('all')) return () => true;
      const wanted = new Set(canonical.map(fold));
      return (s) => oneOf(wanted, subjectValues(s, 'status').map(fold));
    }
    default: {
      // city, legal_form, employees_class: folded equality.
      const wanted = new Set(canonical.map(fold));
      return (s) => oneOf(wanted, subjectValues(s, key).map(fold));
    }
  }
}

/**
 * Compiles a webhook's filters once into a predicate over event subjects. Every filter must
 * match (AND across keys, OR inside one). No filters: everything matches. A filtered webhook
 * never matches an event that carries no subject.
 */
export function compileFilters(filters: WebhookFilters): (subject: EventSubject | null) => boolean {
  const matchers: Matcher[] = [];
  for (const key of WEBHOOK_FILTER_KEYS) {
    const values = filters[key];
    if (!values || values.length === 0) continue;
    const result = canonicalValues(key, values);
    // A stored filter that no longer validates (reference data changed) matches nothing.
    if (!result.ok) return () => false;
    matchers.push(keyMatcher(key, result.values));
  }
  if (matchers.length === 0) return () => true;
  return (subject) => subject !== null && matchers.every((m) => m(subject));
}
