// Answers for requests that never reach a route: Fastify's router errors (frameworkErrors),
// URLs over our limit, malformed percent-encoding in the query string, and a wrong method on
// a path that exists (405 with Allow). All in the contract's error shape with Request-Id.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import { errorBody } from './error-handler.js';

/**
 * The longest request target (path and query string) we read: 8 KiB, as common proxies
 * allow. Longer ones get 414; past Node's 16 KiB header limit the HTTP parser itself refuses
 * them (see client-errors.ts), also as 414.
 */
export const MAX_URL_BYTES = 8 * 1024;

/** Path parameters (ids) longer than this cannot name anything (Fastify's maxParamLength). */
export const MAX_PARAM_LENGTH = 100;

export function sendEarlyError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  return reply
    .code(error.status)
    .header('Request-Id', request.id)
    .headers(error.headers)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(errorBody(error, request.id)));
}

/** Fastify's `frameworkErrors`: the router refused the URL before any route or hook ran. */
export function frameworkError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  void sendEarlyError(request, reply, apiErrorForFramework(error));
}

function apiErrorForFramework(error: Error & { code?: string }): ApiError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new ApiError('invalid_request', 'The path has malformed percent-encoding (a % must start a valid UTF-8 escape such as %C3%A5).');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // No id is that long, so there is nothing there: the contract's answer for an unknown id.
      return new ApiError('not_found', `Nothing has that id: ids in a path are at most ${MAX_PARAM_LENGTH} characters.`);
    default:
      return new ApiError('invalid_request', 'The request could not be routed.');
  }
}

/** The first malformed %-escape of a query string, or undefined when it decodes. */
export function malformedQueryParam(query: string): string | undefined {
  for (const pair of query.split('&')) {
    const [name, value = ''] = pair.split('=', 2) as [string, string?];
    for (const part of [name, value]) {
      try {
        decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        try {
          return decodeURIComponent(name);
        } catch {
          return '(a parameter name)';
        }
      }
    }
  }
  return undefined;
}

/** Route patterns by method, kept as regular expressions to answer 405 for a path that exists. */
export class RouteTable {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];

  add(url: string, methods: readonly string[]): void {
    const source = url
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const pattern = new RegExp(`^${source}/?$`);
    const existing = this.routes.find((r) => r.pattern.source === pattern.source);
    if (existing) for (const m of methods) existing.methods.add(m);
    else this.routes.push({ pattern, methods: new Set(methods) });
  }

  /** The methods some route takes for this path; empty when no route has the path. */
  allowed(path: string): string[] {
    const out = new Set<string>();
    for (const r of this.routes) if (r.pattern.test(path)) for (const m of r.methods) out.add(m);
    return [...out].sort();
  }
}

export function installEarlyErrors(app: FastifyInstance): RouteTable {
  const table = new RouteTable();
  app.addHook('onRoute', (route) => {
    const methods = ([] as string[]).concat(route.method);
    table.add(route.url, methods);
  });
  // Before auth, so a malformed request is told what is wrong with it rather than 401.
  app.addHook('onRequest', async (request) => {
    // HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own refusal had no body and no Request-Id.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw new ApiError('invalid_request', 'The request has no Host header, which HTTP/1.1 requires.');
    }
    const target = request.raw.url ?? '';
    if (Buffer.byteLength(target) > MAX_URL_BYTES) {
      throw new ApiError('uri_too_long', `The URL is over ${MAX_URL_BYTES} bytes; send fewer or shorter parameters (an export takes its filters in the body).`);
    }
    const q = target.indexOf('?');
    if (q >= 0) {
      const param = malformedQueryParam(target.slice(q + 1));
      if (param !== undefined) throw new ApiError('invalid_parameter', `The query string has malformed percent-encoding in ${param}.`, param);
    }
  });
  return table;
}
