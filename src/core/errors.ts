// The error body and codes of contract §2.1, and the one error class the server throws.
import { z } from 'zod';

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
    const key = issue.keys[0];
    const param = prefix + key;
    return new ApiError(code === 'invalid_body' ? 'invalid_body' : 'unknown_parameter', `Unknown parameter "${param}".`, param);
  }
  const param = prefix + issue.path.map(String).join('.');
  const message = param ? `Invalid ${param}: ${issue.message}.` : `Invalid request: ${issue.message}.`;
  return new ApiError(code, message, param || undefined);
}
