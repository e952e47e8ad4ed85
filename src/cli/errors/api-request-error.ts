// An error response of the API (contract §2.1): status, code, message, param and request id.
import { CliError } from './cli-error.js';

export interface ApiErrorDetails {
  method: string;
  /** The path and query that was requested (no host, no key). */
  path: string;
  status: number;
  code: string;
  requestId?: string;
  param?: string;
  /** Seconds from Retry-After, when the server sent it. */
  retryAfter?: number;
}

export class ApiRequestError extends CliError {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly code: string;
  readonly param?: string;
  readonly retryAfter?: number;

  constructor(message: string, details: ApiErrorDetails, opts: { hint?: string } = {}) {
    super(message, { requestId: details.requestId, hint: opts.hint });
    this.name = 'ApiRequestError';
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.code = details.code;
    this.param = details.param;
    this.retryAfter = details.retryAfter;
  }
}
