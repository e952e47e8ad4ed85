// One place turns every failure into the contract's error body; 5xx never shows internals.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, type ErrorBody } from '../core/errors.js';
import { isStoreUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../store/unavailable.js';
import type { RouteTable } from './early-errors.js';

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: { code: error.code, message: error.message, ...(error.param ? { param: error.param } : {}) },
    meta: { request_id: requestId },
  };
}

function toApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', 'The request body is over 1 MB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid_body', 'The Content-Length does not match the body.');
  }
  if (error.statusCode === 400) return new ApiError('invalid_body', `The body is not valid JSON: ${error.message}`);
  // The database is out of reach or busy for a moment: say when to try again, never how it failed.
  if (isStoreUnavailable(error)) {
    return new ApiError('service_unavailable', 'The service is briefly unavailable. Retry after the number of seconds in Retry-After.', undefined, {
      'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    });
  }
  return new ApiError('internal_error', 'Something went wrong on our side. Try again; if it persists, quote the request id.');
}

export function installErrorHandling(app: FastifyInstance, routes: RouteTable): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.status === 503) request.log.warn({ err: error }, 'database unavailable');
    else if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    void reply.code(apiError.status).headers(apiError.headers).send(errorBody(apiError, request.id));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    // A path that exists, asked with a method it does not take: 405 and what it does take.
    const allowed = routes.allowed(path);
    // The path without its trailing slash has a route for this method: 404, saying so (a 405
    // that listed the very method it refused told the caller nothing).
    const slashed = path.length > 1 && path.endsWith('/') && allowed.includes(request.method);
    const e = slashed
      ? new ApiError('not_found', `No route ${request.method} ${path}; leave out the trailing slash: ${path.replace(/\/+$/, '')}.`)
      : allowed.length > 0
        ? new ApiError('method_not_allowed', `${path} does not take ${request.method}; it takes ${allowed.join(', ')}.`, undefined, { Allow: allowed.join(', ') })
        : new ApiError('not_found', `No route ${request.method} ${path}.`);
    void reply.code(e.status).headers(e.headers).send(errorBody(e, request.id));
  });
}
