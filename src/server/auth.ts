// Bearer-key authentication and scope/plan checks (contract §2.1, §2.2).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../app/context.js';
import { ApiError } from '../core/errors.js';
import type { Scope } from '../core/values.js';
import type { Account, ApiKey } from '../store/accounts.js';
import type { Store } from '../store/store.js';
import { hashKey } from './api-keys.js';

export interface Principal {
  key: ApiKey;
  account: Account;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

// The scheme's name is case-insensitive and followed by one or more spaces (RFC 9110 §11.1, §11.4):
// `bearer  <key>` is a key too.
const BEARER = /^Bearer +([A-Za-z0-9_\-.~+/]+=*)$/i;
/** A 401 says how to authenticate (RFC 9110 §11.6.1; RFC 6750 §3 for a key that is refused). */
const CHALLENGE = 'Bearer realm="bolag"';

export async function authenticate(store: Store, request: FastifyRequest): Promise<Principal> {
  // Node keeps the first of two Authorization headers and drops the other: a request that sends
  // two keys is refused rather than answered as whichever came first.
  if (authorizationHeaders(request.raw.rawHeaders) > 1) {
    throw new ApiError('unauthorized', 'Send one Authorization header, not several.', undefined, { 'WWW-Authenticate': CHALLENGE });
  }
  const header = request.headers.authorization;
  const match = header ? BEARER.exec(header) : null;
  if (!match) throw new ApiError('unauthorized', 'Send an API key as "Authorization: Bearer <key>".', undefined, { 'WWW-Authenticate': CHALLENGE });
  const hash = hashKey(match[1]);
  const found = await store.accounts.findKeyByHash(hash);
  // The lookup is by hash; the comparison below keeps the final check constant-time too.
  const stored = Buffer.from(found ? hash : '0'.repeat(64));
  if (!found || !timingSafeEqual(stored, Buffer.from(hash)) || found.revoked_at) {
    throw new ApiError('unauthorized', 'The API key is unknown or has been revoked.', undefined, { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` });
  }
  const principal = { key: found, account: found.account };
  request.principal = principal;
  return principal;
}

function authorizationHeaders(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 13 && raw[i].toLowerCase() === 'authorization') n++;
  return n;
}

export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.key.scopes.includes(scope)) {
    throw new ApiError('insufficient_scope', `This API key lacks the scope ${scope}.`);
  }
}

export function requirePlanWithWebhooks(principal: Principal): void {
  if (principal.account.plan !== 'pro') {
    throw new ApiError('plan_required', 'Webhooks need the pro plan.');
  }
}

/**
 * The onRequest hook of every authenticated route: authenticate, count the request against the
 * key's rate limit, check the scope. The principal is left on the request.
 */
export function guard(ctx: ServerContext, scope: Scope) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // An answer to a key is that account's (a webhook's secret, its exports' links): no cache keeps it.
    reply.header('Cache-Control', 'no-store');
    const principal = await authenticate(ctx.store, request);
    if (ctx.rateLimiter) reply.headers(await ctx.rateLimiter.hit(principal.key.id));
    requireScope(principal, scope);
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiError('unauthorized', 'Not authenticated.');
  return request.principal;
}
