// Validation with the core schemas, turning the first issue into the contract's 400.
import type { z } from 'zod';
import { ApiError, apiErrorFromZod } from '../core/errors.js';

/** Query strings: a repeated key is refused rather than silently picking one value. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const raw = (query ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(raw)) {
    if (Array.isArray(value)) throw new ApiError('invalid_parameter', `Invalid ${key}: given more than once; use one comma-separated value.`, key);
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw apiErrorFromZod(result.error, 'invalid_parameter');
  return result.data;
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  // No body, or an empty one: not JSON, and not {} (contract §2.1).
  if (body === undefined) {
    throw new ApiError('unsupported_media_type', 'The request has no body; send a JSON object with Content-Type: application/json.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('invalid_body', 'The body must be a JSON object.');
  }
  const result = schema.safeParse(body);
  if (!result.success) throw apiErrorFromZod(result.error, 'invalid_body');
  return result.data;
}
