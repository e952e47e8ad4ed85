// Turns an error response (contract §2.1) into the typed error for its status.
import {
  ApiRequestError,
  AuthError,
  InvalidRequestError,
  NotFoundError,
  type ApiErrorDetails,
} from '../errors/index.js';

interface ErrorBody {
  error?: { code?: string; message?: string; param?: string };
  meta?: { request_id?: string };
}

const HINTS: Record<number, string> = {
  401: 'check the API key (bolag login, --api-key or BOLAG_API_KEY)',
  403: 'the key lacks a scope or the plan lacks the feature',
};

/** By code where one status has several causes: a quota of the plan is no missing scope. */
const CODE_HINTS: Record<string, string> = {
  insufficient_scope: 'the key lacks a scope; an operator makes one with it: bolag admin keys create --scopes …',
  plan_required: "the account's plan does not allow it",
};

/** The `error.message` of an error body (contract §2.1), if the text is one. */
export function errorMessageOf(bodyText: string): string | undefined {
  try {
    const message = (JSON.parse(bodyText) as ErrorBody).error?.message;
    return typeof message === 'string' && message.trim() !== '' ? message : undefined;
  } catch {
    return undefined;
  }
}

export function errorFromResponse(opts: {
  method: string;
  path: string;
  status: number;
  statusText?: string;
  bodyText: string;
  requestIdHeader?: string;
  retryAfter?: number;
}): ApiRequestError {
  let body: ErrorBody = {};
  try {
    body = JSON.parse(opts.bodyText) as ErrorBody;
  } catch {
    // not JSON (a proxy's page): fall back to the status line
  }
  const details: ApiErrorDetails = {
    method: opts.method,
    path: opts.path,
    status: opts.status,
    code: body.error?.code ?? `http_${opts.status}`,
    requestId: body.meta?.request_id ?? opts.requestIdHeader,
    param: body.error?.param,
    retryAfter: opts.retryAfter,
  };
  const message = body.error?.message ?? `${opts.method} ${opts.path} failed with HTTP ${opts.status}${opts.statusText ? ` ${opts.statusText}` : ''}.`;
  const hint = (details.code !== undefined ? CODE_HINTS[details.code] : undefined) ?? HINTS[opts.status];
  // A request the service cannot read for its size (a flag of 100,000 characters) is the typed input's fault too.
  if (opts.status === 400 || opts.status === 413 || opts.status === 414 || opts.status === 431) return new InvalidRequestError(message, details);
  if (opts.status === 401 || opts.status === 403) return new AuthError(message, details, { hint });
  if (opts.status === 404) return new NotFoundError(message, details);
  return new ApiRequestError(message, details);
}
