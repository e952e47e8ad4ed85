// The one parser of request bodies: JSON only (anything else is 415), and an empty body is no
// body: a route that takes one answers 415 (contract §2.1, "an empty body is not {}"), one that
// takes none accepts it (clients send Content-Type: application/json by habit). No string may
// hold half of a surrogate pair: JSON's `\ud800` escape is the only way one arrives (bytes that
// are not UTF-8 were already U+FFFD), and PostgreSQL's text stored U+FFFD in its place, so what
// a later read returned differed from what the create answered.
import { ApiError } from '../core/errors.js';

/** A `\u` escape of a surrogate: bodies without one (nearly all) are not walked. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/** A lone surrogate: with the u flag a whole pair is one code point, not matched. */
const HALF_SURROGATE = /\p{Cs}/u;

export function parseJsonBody(body: string): unknown {
  if (body === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    throw Object.assign(e as Error, { statusCode: 400 });
  }
  if (SURROGATE_ESCAPE.test(body)) {
    const where = halfSurrogateAt(parsed, '');
    if (where !== null) {
      throw new ApiError(
        'invalid_body',
        `${where === '' ? 'The body' : where} has half of a surrogate pair (a \\ud800–\\udfff escape without its other half); send text as whole characters.`,
        where === '' ? undefined : where,
      );
    }
  }
  return parsed;
}

/** The dotted path of the first string (value or key) that is not well formed, or null. */
function halfSurrogateAt(value: unknown, path: string): string | null {
  if (typeof value === 'string') return HALF_SURROGATE.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = halfSurrogateAt(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const here = path === '' ? key : `${path}.${key}`;
      if (HALF_SURROGATE.test(key)) return here;
      const found = halfSurrogateAt(inner, here);
      if (found !== null) return found;
    }
  }
  return null;
}
