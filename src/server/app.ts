// The Fastify app, built without listening: tests use it through inject() and over loopback,
// start.ts listens. Routes are registered explicitly, one module per resource.
import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { LIMITS } from '../core/values.js';
import type { Store } from '../store/store.js';
import { API_PREFIX, type ServerContext, type ServerOptions } from '../app/context.js';
import { publicApiBase } from '../core/public-url.js';
import { installErrorHandling } from './error-handler.js';
import { frameworkError, installEarlyErrors, MAX_PARAM_LENGTH } from './early-errors.js';
import { handleClientError } from './client-errors.js';
import { newRequestId } from './request-id.js';
import { RateLimiter } from '../app/rate-limit.js';
import { ProblemLog } from '../app/problem-log.js';
import { companyRoutes } from './routes/companies.js';
import { openApiRoutes } from './routes/openapi.js';
import { docsRoutes } from './routes/docs.js';
import { Signer } from '../app/signer.js';
import { ROUTE_MODULES } from './route-modules.js';
import { requestForLog } from './log-redaction.js';
import { parseJsonBody } from './json-body.js';

/** Per key: generous for people and scripts, a brake on runaway loops. */
export const DEFAULT_RATE_LIMIT = { max: 6000, windowMs: 60_000 };

export async function buildApp(store: Store, options: ServerOptions = {}): Promise<{ app: FastifyInstance; ctx: ServerContext }> {
  const app = Fastify({
    // On stderr, as the CLI's --verbose says: stdout is data (a first start's API key).
    logger: options.logger
      ? { level: options.logger === 'warn' ? 'warn' : 'info', redact: ['req.headers.authorization'], serializers: { req: requestForLog }, stream: process.stderr }
      : false,
    bodyLimit: LIMITS.bodyMaxBytes,
    genReqId: newRequestId,
    // Every answer in the contract's shape, also those given before a route runs.
    frameworkErrors: frameworkError,
    clientErrorHandler: handleClientError,
    // Node refuses an HTTP/1.1 request without Host itself, with a bare 400: early-errors.ts does.
    http: { requireHostHeader: false },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // A request whose body stops coming (shorter than its Content-Length) gets 408, not silence.
    requestTimeout: 30_000,
    requestIdHeader: false,
    trustProxy: false,
  });
  const signingKey = await store.getOrCreateSetting('signing_key', () => randomBytes(32).toString('base64url'));
  let listeningUrl: string | undefined;
  const publicUrl = options.publicUrl === undefined ? undefined : publicApiBase(options.publicUrl);
  const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  const problems = new ProblemLog(options.logger ? app.log : undefined);
  const ctx: ServerContext = {
    store,
    signer: new Signer(signingKey),
    options,
    rateLimiter: limit.max > 0 ? new RateLimiter(store.rateWindows, limit.max, limit.windowMs, { onError: (err) => problems.warn('rate limit: not counted (requests let through)', err) }) : null,
    baseUrl: () => publicUrl ?? listeningUrl ?? `http://127.0.0.1${API_PREFIX}`,
    problems,
  };
  app.addHook('onListen', async () => {
    listeningUrl = listeningUrlOf(app);
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('Request-Id', request.id);
    // A browser given a download or an error body takes it as the type we say, never sniffs HTML in it.
    reply.header('X-Content-Type-Options', 'nosniff');
  });

  // JSON only: anything else is 415, and an empty body is not {}.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    try {
      done(null, parseJsonBody(body as string, req.headers['content-type'], req.headers['content-encoding']));
    } catch (e) {
      done(e as Error, undefined);
    }
  });

  installErrorHandling(app, installEarlyErrors(app));

  if (options.docs !== false) await docsRoutes(app, ctx);
  await app.register(
    async (api) => {
      companyRoutes(api, ctx);
      openApiRoutes(api, ctx);
      for (const register of ROUTE_MODULES) await register(api, ctx);
    },
    { prefix: API_PREFIX },
  );
  return { app, ctx };
}

/** The API base URL on the address the app listens on (a wildcard address reads as loopback). */
export function listeningUrlOf(app: FastifyInstance): string | undefined {
  const address = app.server.address();
  if (!address || typeof address !== 'object') return undefined;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}${API_PREFIX}`;
}
