// The error body and codes of contract §2.1, and the one error class the server throws.
import { z } from 'zod';
import { quoted } from './text.js';

export const ERROR_STATUS = {
  invalid_parameter: 400,
  unknown_parameter: 400,
  invalid_body: 400,
  invalid_request: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  plan_required: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  idempotency_conflict: 409,
  link_expired: 410,
  range_not_satisfiable: 416,
  payload_too_large: 413,
  unsupported_media_type: 415,
  uri_too_long: 414,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    param: z.string().optional(),
  }),
  meta: z.object({ request_id: z.string() }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

/** Turns the first zod issue into the contract's 400: unknown keys are unknown_parameter. */
export function apiErrorFromZod(error: z.ZodError, code: 'invalid_parameter' | 'invalid_body' = 'invalid_parameter', prefix = ''): ApiError {
  const issue = error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    // Where the key is: `filters.revenue_min` for a webhook's filters, not `revenue_min`.
    const param = prefix + [...issue.path.map(String), issue.keys[0]].join('.');
    return new ApiError(code === 'invalid_body' ? 'invalid_body' : 'unknown_parameter', `Unknown parameter ${quoted(param)}.`, param);
  }
  const param = prefix + issue.path.map(String).join('.');
  const said = plainMessage(issue);
  const message = param ? `Invalid ${param}: ${said}.` : `Invalid request: ${said}.`;
  return new ApiError(code, message, param || undefined);
}

/**
 * Zod's own wording ("Invalid input: expected array, received undefined", "Too small: expected
 * string to have >=1 characters") said the way the rest of our messages are; a schema's own
 * message is kept as it is.
 */
export function plainMessage(issue: z.core.$ZodIssue): string {
  const a = (n: string) => (/^[aeiou]/.test(n) ? `an ${n}` : `a ${n}`);
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input:')) {
    return / received undefined$/.test(issue.message) ? 'it is required' : `must be ${a(issue.expected)}`;
  }
  if (issue.code === 'too_small' && issue.message.startsWith('Too small:')) {
    const n = Number(issue.minimum);
    if (issue.origin === 'string') return n <= 1 ? 'must not be empty' : `must be at least ${n} characters`;
    if (issue.origin === 'array') return n <= 1 ? 'must not be empty' : `must have at least ${n} items`;
  }
  if (issue.code === 'too_big' && issue.message.startsWith('Too big:')) {
    const n = Number(issue.maximum);
    if (issue.origin === 'string') return `must be at most ${n} characters`;
    if (issue.origin === 'array') return `must have at most ${n} items`;
  }
  return issue.message;
}
