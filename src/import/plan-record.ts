// What one imported record does to the register: the merged company and the events its
// differences imply (contract §2.7 event data, §2.8), or null when nothing changed.
import { z } from 'zod';
import { type Company, CompanySchema } from '../core/company.js';
import { unfitText } from '../core/stored-text.js';
import { categoryBySlug } from '../reference/categories.js';
import type { BolagEvent } from '../core/events.js';
import { newId } from '../core/ids.js';
import { formatOrgNr, isValidOrgNr, normalizeOrgNr } from '../core/orgnr.js';
import { countyName, municipalityName } from '../core/place-names.js';
import { fold } from '../core/text.js';
import type { ImportPlanner, PlannedEvent } from '../store/import-types.js';
import { ImportError } from './import-error.js';
import { sameValue } from './same-value.js';
import { applyStatementFigures } from './statement-figures.js';

/**
 * Fields that never count as a change: identity, bookkeeping, query-dependent extras, and what has
 * events of its own (status, latest_financials). A move names `municipality` and `county` as well as
 * their codes: a subscriber may watch either.
 */
const NOT_COMPARED = new Set(['id', 'updated_at', 'distance_km', 'latest_financials', 'status']);

const IMPORT_SCHEMA = CompanySchema.omit({ distance_km: true }).extend({ id: CompanySchema.shape.id.optional() });

// Free text with a control character other than a tab or a line break is refused, on both
// stores alike: PostgreSQL's text cannot hold NUL at all, and a JSON escape of half a surrogate
// pair is no text at all.
const text = z
  .string()
  .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'must not contain control characters (other than tabs and line breaks)')
  .regex(/^\P{Cs}*$/u, 'must not contain half of a surrogate pair');
/** A name or city, which the indexes hold folded (src/core/stored-text.ts). */
const indexedText = text.superRefine((v, ctx) => {
  const unfit = unfitText(v);
  if (unfit !== null) ctx.addIssue({ code: 'custom', message: unfit });
});
/**
 * What PostgreSQL could not hold or index, checked on the fields a record gives (all of them for
 * a new company), not on what is stored: a row an older version stored keeps importing.
 */
const GIVEN_SCHEMA = z
  .object({
    name: indexedText,
    address: z.object({ street: text, city: indexedText }).partial(),
    category: z
      .object({
        slug: z.string().refine((slug) => categoryBySlug(slug) !== undefined, { error: (issue) => `is no category we know ("${String(issue.input)}"; GET /categories lists them)` }),
        name: text,
      })
      .partial(),
    website: text.nullable(),
    // PostgreSQL's spatial index overflowed on coordinates such as 1e200.
    location: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).partial().nullable(),
  })
  .partial();

function importError(line: number, issue: z.core.$ZodIssue, what = ''): ImportError {
  return new ImportError(line, `${issue.path.join('.') || 'record'}: ${issue.message}${what}`);
}

export const planRecord: ImportPlanner = (record, existing, id, now) => {
  const { line, data } = record;
  const orgRaw = typeof data.org_nr === 'string' ? data.org_nr : '';
  const digits = normalizeOrgNr(orgRaw);
  if (!digits || !isValidOrgNr(digits)) throw new ImportError(line, `org_nr "${orgRaw}" is not a valid organisation number`);

  // Most records of a weekly file change nothing: settled before any validation or copying.
  if (existing && changesNothing(existing, data, digits)) return null;
  const given = GIVEN_SCHEMA.safeParse(data);
  if (!given.success) throw importError(line, given.error.issues[0]);
  const merged = mergeRecord(existing, data);
  applyStatementFigures(merged, existing, data);
  merged.org_nr = formatOrgNr(digits);
  merged.id = id ?? '';
  if (typeof merged.municipality_code === 'string') merged.municipality = municipalityName(merged.municipality_code);
  if (typeof merged.county_code === 'string') merged.county = countyName(merged.county_code);
  merged.updated_at = existing?.updated_at ?? now;
  const parsed = IMPORT_SCHEMA.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw importError(line, issue, !existing && issue.message.endsWith('received undefined') ? ' (a new company needs every field)' : '');
  }
  const company = { ...parsed.data, id: id ?? '' } as Company;
  const events = diffEvents(existing, company, now);
  if (existing && events.length === 0) return null;
  company.updated_at = now;
  return { company, events };
};

/** True when every field the record gives equals the stored one (derived and bookkeeping fields aside). */
function changesNothing(existing: Company, data: Record<string, unknown>, digits: string): boolean {
  const stored = existing as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(data)) {
    if (key === 'org_nr') {
      if (digits !== existing.org_nr.replace('-', '')) return false;
    } else if (key === 'id' || key === 'updated_at' || key === 'distance_km' || key === 'municipality' || key === 'county') {
      continue;
    } else if (isPlainObject(value) && isPlainObject(stored[key])) {
      const current = stored[key] as Record<string, unknown>;
      for (const [k, v] of Object.entries(value)) if (!sameValue(v, current[k])) return false;
    } else if (!sameValue(value, stored[key])) {
      return false;
    }
  }
  return true;
}

function mergeRecord(existing: Company | null, data: Record<string, unknown>): Record<string, unknown> {
  // Shallow: nested objects are replaced, never changed in place, and `existing` is this batch's own.
  const base: Record<string, unknown> = existing ? { ...existing } : {};
  for (const [key, value] of Object.entries(data)) {
    // JSON.parse makes `__proto__` a key like any; assigned, it would set base's prototype.
    if (key === '__proto__') continue;
    const current = base[key];
    if (isPlainObject(value) && isPlainObject(current)) base[key] = { ...current, ...value };
    else base[key] = value;
  }
  return base;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function diffEvents(before: Company | null, after: Company, now: string): PlannedEvent[] {
  const subject = eventSubject(after);
  const event = (type: string, data: Record<string, unknown>): PlannedEvent => ({
    event: { id: newId('evt'), type, created_at: now, data } as BolagEvent,
    subject,
  });
  const base = { company_id: after.id, org_nr: after.org_nr };
  if (!before) {
    const events = [event('company.created', { ...base, name: after.name })];
    if (after.latest_financials) events.push(event('financials.published', { ...base, fiscal_year: after.latest_financials.fiscal_year }));
    return events;
  }
  const events: PlannedEvent[] = [];
  const changed = Object.keys(after).filter((k) => !NOT_COMPARED.has(k) && !sameValue(before[k as keyof Company], after[k as keyof Company]));
  if (changed.length > 0) events.push(event('company.updated', { ...base, changed_fields: changed }));
  if (before.status !== after.status) {
    events.push(event('company.status_changed', { ...base, previous_status: before.status, status: after.status }));
  }
  const fyBefore = before.latest_financials?.fiscal_year ?? null;
  const fyAfter = after.latest_financials?.fiscal_year ?? null;
  if (fyAfter !== null && fyAfter !== fyBefore) events.push(event('financials.published', { ...base, fiscal_year: fyAfter }));
  else if (!sameValue(before.latest_financials ?? null, after.latest_financials ?? null) && !changed.length) {
    // A corrected statement for the same year is still a change of public data.
    events.push(event('company.updated', { ...base, changed_fields: ['latest_financials'] }));
  }
  return events;
}

/** The company as webhook filters see it (contract §2.7 filter keys). */
export function eventSubject(c: Company): Record<string, string | string[]> {
  return {
    county: c.county_code,
    municipality: c.municipality_code,
    city: fold(c.address.city),
    postal_code: c.address.postal_code.replace(/\s/g, ''),
    legal_form: c.legal_form,
    status: c.status,
    category: c.category.slug,
    sni: c.sni_codes,
    employees_class: c.employees_class,
    org_nr: c.org_nr.replace('-', ''),
  };
}
