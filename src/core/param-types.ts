// Zod builders for request parameters. A parameter arrives as a string in a query string
// and as a string, number or boolean in a JSON body (export filters); each builder accepts
// both and yields one normalised value, with a message a person can act on.
import { z } from 'zod';
import { CONTROL_CHARACTER, nameKey, quoted, splitList } from './text.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;
const NO_CONTROL = 'must not contain control characters';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function booleanParam(description: string) {
  return z
    // In any case (`TRUE`, `False`), as every other closed value set is read.
    .union([z.boolean(), z.string().transform((v) => v.toLowerCase()).pipe(z.enum(['true', 'false', '1', '0']))], { error: 'must be true or false' })
    .transform((v) => v === true || v === 'true' || v === '1')
    .meta({ description });
}

export function numberParam(description: string, bounds: { min?: number; max?: number; exclusiveMin?: number } = {}) {
  const range = describeRange(bounds);
  return z
    // The message on the pattern too: a string that fails it is reported by that branch of the
    // union, which showed the pattern itself to users ("must match pattern /^-?\d+…/").
    .union([z.number(), z.string().regex(DECIMAL, { error: `must be a number${range}, in plain digits like 250 or 0.3 (no spaces, no exponent)` })], { error: `must be a number${range}` })
    .transform((v, ctx) => {
      const n = typeof v === 'number' ? v : Number(v);
      const ok =
        Number.isFinite(n) &&
        (bounds.min === undefined || n >= bounds.min) &&
        (bounds.max === undefined || n <= bounds.max) &&
        (bounds.exclusiveMin === undefined || n > bounds.exclusiveMin);
      if (!ok) {
        ctx.addIssue({ code: 'custom', message: `must be a number${range}` });
        return z.NEVER;
      }
      return n;
    })
    .meta({ description });
}

export function integerParam(description: string, min: number, max: number) {
  const message = `must be an integer from ${min} to ${max}`;
  return z
    .union([z.number(), z.string().regex(/^-?\d+$/, { error: message })], { error: message })
    .transform((v, ctx) => {
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    })
    .meta({ description });
}

export function dateParam(description: string) {
  return z
    .string({ error: 'must be a date YYYY-MM-DD' })
    .transform((v, ctx) => {
      if (!DATE.test(v) || !isCalendarDate(v)) {
        ctx.addIssue({ code: 'custom', message: 'must be a real date YYYY-MM-DD' });
        return z.NEVER;
      }
      return v;
    })
    .meta({ description, format: 'date' });
}

export function textParam(description: string, maxLength: number) {
  return z
    .string({ error: 'must be a string' })
    .transform((v, ctx) => {
      if (CONTROL_CHARACTER.test(v)) {
        ctx.addIssue({ code: 'custom', message: NO_CONTROL });
        return z.NEVER;
      }
      const trimmed = v.trim();
      if (trimmed.length === 0 || [...v].length > maxLength) {
        ctx.addIssue({ code: 'custom', message: `must be 1 to ${maxLength} characters` });
        return z.NEVER;
      }
      return trimmed;
    })
    .meta({ description });
}

/**
 * The most distinct items a list takes. Each item is a condition of the query: 800 postal codes
 * kept SQLite preparing and running one search for 30 s (the whole process waiting), and 500 SNI
 * codes passed its expression depth (a 500). A list of all 290 municipalities is a county or no
 * filter at all.
 */
export const MAX_LIST_ITEMS = 100;

/**
 * A comma-separated list of at most MAX_LIST_ITEMS distinct items. `normalize` maps one item to
 * its canonical form, or returns null to reject it; the message names the item so the user sees
 * which one was wrong.
 */
export function listParam(description: string, normalize: (item: string) => string | null, expected: string | ((item: string) => string)) {
  return z
    .union([z.string(), z.array(z.string())], { error: 'must be a comma-separated list' })
    .transform((v, ctx) => {
      const items = (Array.isArray(v) ? v : [v]).flatMap(splitList);
      if (items.length === 0) {
        ctx.addIssue({ code: 'custom', message: EMPTY_LIST });
        return z.NEVER;
      }
      const out: string[] = [];
      for (const item of items) {
        if (CONTROL_CHARACTER.test(item)) {
          ctx.addIssue({ code: 'custom', message: NO_CONTROL });
          return z.NEVER;
        }
        const canonical = normalize(item);
        if (canonical === null) {
          ctx.addIssue({ code: 'custom', message: `has an unknown value ${quoted(item)}; expected ${typeof expected === 'function' ? expected(item) : expected}` });
          return z.NEVER;
        }
        if (!out.includes(canonical)) out.push(canonical);
        if (out.length > MAX_LIST_ITEMS) {
          ctx.addIssue({ code: 'custom', message: `takes at most ${MAX_LIST_ITEMS} items` });
          return z.NEVER;
        }
      }
      return out;
    })
    .meta({ description });
}

const EMPTY_LIST = 'must not be empty';

/**
 * Whether a parameter is a list (listParam: comma-separated, or repeated in a query string),
 * for the CLI, which joins a repeated flag's values where the parameter is one.
 */
export function isListParam(schema: z.ZodType): boolean {
  const r = schema.safeParse([]);
  return !r.success && r.error.issues.some((i) => i.code === 'custom' && i.message === EMPTY_LIST);
}

/** A list whose items come from a closed set, matched case-insensitively and without diacritics. */
/** `aliases`: other names of the values (an abbreviation → its value), taken as the value. */
export function enumListParam(description: string, values: readonly string[], aliases: Readonly<Record<string, string>> = {}) {
  const byFolded = new Map([...Object.entries(aliases).map(([alias, v]) => [nameKey(alias), v] as const), ...values.map((v) => [nameKey(v), v] as const)]);
  return listParam(description, (item) => byFolded.get(nameKey(item)) ?? null, `one of ${values.join(', ')}`).meta({
    description,
    enum: [...values],
  });
}

export function isCalendarDate(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function describeRange(b: { min?: number; max?: number; exclusiveMin?: number }): string {
  if (b.exclusiveMin !== undefined && b.max !== undefined) return ` above ${b.exclusiveMin} and at most ${b.max}`;
  if (b.min !== undefined && b.max !== undefined) return ` from ${b.min} to ${b.max}`;
  if (b.min !== undefined) return ` of at least ${b.min}`;
  if (b.max !== undefined) return ` of at most ${b.max}`;
  return '';
}
