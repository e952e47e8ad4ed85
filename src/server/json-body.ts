// The one parser of request bodies: JSON only (anything else is 415), and an empty body is no
// body: a route that takes one answers 415 (contract §2.1, "an empty body is not {}"), one that
// takes none accepts it (clients send Content-Type: application/json by habit). No string may
// hold half of a surrogate pair: JSON's `\ud800` escape is the only way one arrives (bytes that
// are not UTF-8 were already U+FFFD), and PostgreSQL's text stored U+FFFD in its place, so what
// a later read returned differed from what the create answered.
import { ApiError } from '../core/errors.js';

/** A `\u` escape of a surrogate: bodies without one (nearly all) are not walked. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/**
 * A key `__proto__` may be in the body (written out, or with an escape in it): JSON.parse makes
 * it an own key, which validation skipped, so `filters: {"__proto__": {…}}` made a webhook
 * without filters, answered 201. Refused.
 */
const MAYBE_PROTO_KEY = /__proto__|\\u/;
/** A lone surrogate: with the u flag a whole pair is one code point, not matched. */
const HALF_SURROGATE = /\p{Cs}/u;

/** The `charset` parameter of a Content-Type, unquoted. */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

export function parseJsonBody(body: string, contentType: string | undefined = undefined, contentEncoding: string | undefined = undefined): unknown {
  // A compressed body is not read: parsed as it came, gzip's bytes were answered 400 "not valid
  // JSON", and a Content-Encoding on plain JSON was taken as if it were not there.
  if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== 'identity') {
    throw new ApiError(
      'unsupported_media_type',
      `The body is sent with Content-Encoding: ${contentEncoding.slice(0, 40)}; send it uncompressed, with no Content-Encoding.`,
    );
  }
  if (body === '') return undefined;
  // JSON is UTF-8 (RFC 8259) and is read as such: a body declared in another charset would be
  // stored as other text than its sender meant (Latin-1's å read as UTF-8 is U+FFFD).
  const charset = CHARSET.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(
      'unsupported_media_type',
      `The body is declared as charset=${charset.slice(0, 40)}; JSON is read as UTF-8 only. Send it as UTF-8, with Content-Type: application/json or application/json; charset=utf-8.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    throw Object.assign(e as Error, { statusCode: 400 });
  }
  if (SURROGATE_ESCAPE.test(body) || MAYBE_PROTO_KEY.test(body)) {
    const found = unfitAt(parsed);
    if (found?.why === 'proto') {
      throw new ApiError('invalid_body', `The body has a key "__proto__" (${found.path}), which no field of this API is named; leave it out.`, found.path);
    }
    if (found !== null) {
      const where = found.path.length > 100 ? `${found.path.slice(0, 100)}…` : found.path;
      throw new ApiError(
        'invalid_body',
        `${where === '' ? 'The body' : where} has half of a surrogate pair (a \\ud800–\\udfff escape without its other half); send text as whole characters.`,
        where === '' ? undefined : where,
      );
    }
  }
  return parsed;
}

/**
 * The dotted path of the first string (value or key) that is not well formed, or of the first
 * key `__proto__`, or null. A walk
 * with a stack of its own, each step knowing only its parent's: a body nested thousands deep
 * (1 MB of `[`) overflowed the call stack, and its paths written out at every step would have
 * been quadratic.
 */
function unfitAt(root: unknown): { path: string; why: 'surrogate' | 'proto' } | null {
  const parents: number[] = [-1];
  const steps: string[] = [''];
  const pathOf = (node: number): string => {
    const parts: string[] = [];
    for (let n = node; n > 0; n = parents[n]) parts.push(steps[n]);
    return parts.reverse().join('').replace(/^\./, '');
  };
  const pending: [unknown, number][] = [[root, 0]];
  const step = (parent: number, text: string): number => {
    parents.push(parent);
    steps.push(text);
    return parents.length - 1;
  };
  while (pending.length > 0) {
    const [value, node] = pending.pop()!;
    if (typeof value === 'string') {
      if (HALF_SURROGATE.test(value)) return { path: pathOf(node), why: 'surrogate' };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push([value[i], step(node, `[${i}]`)]);
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i];
        const child = step(node, `.${key}`);
        if (HALF_SURROGATE.test(key)) return { path: pathOf(child), why: 'surrogate' };
        if (key === '__proto__') return { path: pathOf(child), why: 'proto' };
        pending.push([inner, child]);
      }
    }
  }
  return null;
}
