// The webhook endpoints of contract §2.7: scope webhooks:manage, a plan with webhooks, and
// only the caller's own account's webhooks (another account's are 404, as if absent).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { mayNameRow, newId } from '../../core/ids.js';
import { integerParam } from '../../core/param-types.js';
import { LIMITS, TEST_EVENT_TYPE } from '../../core/values.js';
import { WebhookCreateSchema, WebhookUpdateSchema } from '../../core/webhooks.js';
import type { StoredWebhook } from '../../store/webhooks.js';
import { enqueueDelivery } from '../../webhooks/delivery.js';
import { validateFilters } from '../../webhooks/filters.js';
import { refreshHealth } from '../../webhooks/health.js';
import { presentDelivery, presentWebhook, type PublicWebhook } from '../../webhooks/present.js';
import { generateSecret } from '../../webhooks/signature.js';
import { webhookSignals } from '../../webhooks/signals.js';
import { assertWebhookUrl, type UrlPolicy } from '../../webhooks/url-policy.js';
import { guard, principalOf, requirePlanWithWebhooks, requireScope } from '../auth.js';
import type { ServerContext } from '../../app/context.js';
import { parseBody, parseQuery } from '../../core/validate.js';
import { idempotent, parseIdempotencyKey, requestHash } from '../../exports/idempotency.js';
import { sendIdempotent } from '../idempotent-reply.js';
import { quoted } from '../../core/text.js';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

const PAGE_QUERY = z
  .strictObject({
    limit: integerParam('Page size.', LIMITS.limitMin, LIMITS.limitMax),
    cursor: z.string().min(1).max(500),
  })
  .partial();

/** (created_at, id) in code-unit order: the order GET /webhooks pages in, whatever the database's collation. */
const byCreation = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

const NO_BODY = z.strictObject({});

export function webhookRoutes(api: FastifyInstance, ctx: ServerContext): void {
  const { store } = ctx;
  const manage = guard(ctx, 'webhooks:manage');
  const guarded = async (request: FastifyRequest, reply: Parameters<typeof manage>[1]) => {
    await manage(request, reply);
    requirePlanWithWebhooks(principalOf(request));
  };
  const policy = (): UrlPolicy => ({ allowInsecure: ctx.options.allowInsecureWebhooks === true, lookup: ctx.options.webhookLookup });
  const disableAfter = () => ctx.options.webhookDisableAfterSeconds ?? LIMITS.webhookDisableAfterSeconds;
  const meta = (request: FastifyRequest) => ({ request_id: request.id });

  /** The caller's webhook with its health brought up to date, or 404. */
  async function own(request: IdRequest): Promise<StoredWebhook> {
    const { account } = principalOf(request);
    const found = mayNameRow(request.params.id) ? await store.webhooks.get(account.id, request.params.id) : null;
    if (!found) throw new ApiError('not_found', `No webhook with id ${quoted(request.params.id)}.`);
    return refreshHealth(store, found, new Date(), disableAfter());
  }

  /**
   * Export events carry the account's download links: a key may subscribe to them only if it may
   * read the exports (a webhooks:manage key alone got every link by webhook). Where they go and
   * what signs them is the same power: such a webhook's URL and secret are changed only by such
   * a key too (else a webhooks:manage key pointed an existing export webhook at itself).
   */
  function mayReceive(request: FastifyRequest, events: readonly string[]): void {
    if (events.some((e) => e.startsWith('export.'))) requireScope(principalOf(request), 'exports:read');
  }

  function noBody(body: unknown): void {
    if (body !== undefined && body !== null) parseBody(NO_BODY, body);
  }

  // An Idempotency-Key works as on POST /exports: a create retried after a lost answer (a
  // timeout) gets the first answer, secret included, instead of making a second webhook that
  // would get every event twice. The answer is kept with the key without its secret (a copy of
  // every secret for a day, which outlived a rotation or a delete): a replay adds the webhook's
  // secret as it is now, and one whose webhook was deleted is a 409.
  api.post('/webhooks', { onRequest: guarded }, async (request, reply) => {
    const { account } = principalOf(request);
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    const input = parseBody(WebhookCreateSchema, request.body);
    mayReceive(request, input.events);
    await assertWebhookUrl(input.url, policy());
    let created: StoredWebhook | undefined;
    const result = await idempotent(store.exports, account.id, key, requestHash('POST /webhooks', request.body), async () => {
      created = await createWebhook(account.id, input);
      return { status: 201, body: { data: presentWebhook(created), meta: meta(request) } };
    });
    const body = result.body as { data: PublicWebhook & { secret?: string }; meta: unknown };
    const webhook = created ?? (await store.webhooks.get(account.id, body.data.id));
    if (webhook === null) {
      throw new ApiError('idempotency_conflict', 'The webhook this Idempotency-Key created has been deleted since; send the create with a new key to make another.', 'Idempotency-Key');
    }
    const answer = { ...result, body: { ...body, data: { ...body.data, secret: webhook.secret } } };
    return sendIdempotent(request, reply, answer, `${ctx.baseUrl()}/webhooks/${webhook.id}`);
  });

  async function createWebhook(accountId: string, input: ReturnType<typeof WebhookCreateSchema.parse>): Promise<StoredWebhook> {
    const webhook: StoredWebhook = {
      id: newId('whk'),
      account_id: accountId,
      url: input.url,
      events: [...new Set(input.events)],
      filters: validateFilters(input.filters) as Record<string, string[]>,
      status: 'active',
      secret: generateSecret(),
      previous_secret: null,
      previous_secret_expires_at: null,
      consecutive_failures: 0,
      failing_since: null,
      created_at: new Date().toISOString(),
    };
    const max = ctx.options.webhooksPerAccount ?? LIMITS.webhooksPerAccount;
    if (!(await store.webhooks.create(webhook, { maxPerAccount: max }))) {
      throw new ApiError('plan_required', `An account can have at most ${max} webhooks; delete one (DELETE /webhooks/{id}) before creating another.`);
    }
    return webhook;
  }

  // A list response pages as the others do (spec §2.2); by default a page holds as many as an
  // account may have (100), so most accounts see every webhook at once.
  api.get('/webhooks', { onRequest: guarded }, async (request) => {
    const query = parseQuery(PAGE_QUERY, request.query);
    const { account } = principalOf(request);
    const limit = query.limit ?? LIMITS.limitMax;
    const after = query.cursor === undefined ? undefined : decodeAfterCursor(ctx, LIST_CURSOR, account.id, query.cursor);
    const all = (await store.webhooks.list(account.id)).sort(byCreation);
    const rest = after === undefined ? all : all.filter((w) => byCreation(w, after) > 0);
    const page = rest.slice(0, limit);
    const hasMore = rest.length > limit;
    const now = new Date();
    const hooks = await Promise.all(page.map((w) => refreshHealth(store, w, now, disableAfter())));
    return {
      data: hooks.map((w) => presentWebhook(w)),
      pagination: { limit, has_more: hasMore, ...(hasMore ? { next_cursor: encodeAfterCursor(ctx, LIST_CURSOR, account.id, page[page.length - 1]) } : {}) },
      meta: meta(request),
    };
  });

  api.get<{ Params: { id: string } }>('/webhooks/:id', { onRequest: guarded }, async (request) => {
    parseQuery(z.strictObject({}), request.query);
    return { data: presentWebhook(await own(request)), meta: meta(request) };
  });

  api.patch<{ Params: { id: string } }>('/webhooks/:id', { onRequest: guarded }, async (request) => {
    const webhook = await own(request);
    const input = parseBody(WebhookUpdateSchema, request.body);
    // What it receives now counts too: narrowing an export webhook's events first, then moving
    // it, would send its queued export deliveries (and their retries) to the new URL.
    if (input.events !== undefined || input.url !== undefined) mayReceive(request, [...webhook.events, ...(input.events ?? [])]);
    const patch: Partial<StoredWebhook> = {};
    if (input.url !== undefined) {
      await assertWebhookUrl(input.url, policy());
      patch.url = input.url;
    }
    if (input.events !== undefined) patch.events = [...new Set(input.events)];
    if (input.filters !== undefined) patch.filters = validateFilters(input.filters) as Record<string, string[]>;
    if (input.status === 'active') Object.assign(patch, { status: 'active', consecutive_failures: 0, failing_since: null });
    await store.webhooks.update(webhook.id, patch);
    webhookSignals(store).changes.notify(webhook.id);
    return { data: presentWebhook({ ...webhook, ...patch }), meta: meta(request) };
  });

  api.delete<{ Params: { id: string } }>('/webhooks/:id', { onRequest: guarded }, async (request) => {
    const webhook = await own(request);
    await store.webhooks.delete(webhook.account_id, webhook.id);
    webhookSignals(store).changes.notify(webhook.id);
    return { data: { id: webhook.id, deleted: true }, meta: meta(request) };
  });

  api.post<{ Params: { id: string } }>('/webhooks/:id/rotate-secret', { onRequest: guarded }, async (request) => {
    noBody(request.body);
    const webhook = await own(request);
    mayReceive(request, webhook.events);
    const now = new Date();
    const secret = generateSecret();
    const expires = new Date(now.getTime() + LIMITS.secretOverlapSeconds * 1000).toISOString();
    // One statement: a rotation running at once on another process keeps this one's secret.
    const rotated = await store.webhooks.rotateSecret(webhook.id, secret, expires);
    if (!rotated) throw new ApiError('not_found', `No webhook with id "${webhook.id}".`);
    const patch = { secret, previous_secret: rotated.previous_secret, previous_secret_expires_at: expires };
    webhookSignals(store).changes.notify(webhook.id);
    return { data: presentWebhook({ ...webhook, ...patch }, { withSecret: true, now }), meta: meta(request) };
  });

  api.post<{ Params: { id: string } }>('/webhooks/:id/test', { onRequest: guarded }, async (request, reply) => {
    noBody(request.body);
    const webhook = await own(request);
    if (webhook.status === 'disabled') {
      throw new ApiError('invalid_parameter', `Webhook ${webhook.id} is disabled; re-enable it first: PATCH {"status":"active"} (bolag webhooks update ${webhook.id} --enable).`, 'id');
    }
    const event = {
      id: newId('evt'),
      type: TEST_EVENT_TYPE,
      created_at: new Date().toISOString(),
      data: { webhook_id: webhook.id, message: 'A test delivery from bolag.' },
    };
    await enqueueDelivery(store, { webhook_id: webhook.id, account_id: webhook.account_id, event_id: event.id, event_type: event.type, body: JSON.stringify(event) });
    webhookSignals(store).delivery.wake();
    reply.code(202);
    return { data: { webhook_id: webhook.id, event_id: event.id, type: event.type }, meta: meta(request) };
  });

  api.get<{ Params: { id: string } }>('/webhooks/:id/deliveries', { onRequest: guarded }, async (request) => {
    const query = parseQuery(PAGE_QUERY, request.query);
    const webhook = await own(request);
    const limit = query.limit ?? LIMITS.limitDefault;
    const before = query.cursor === undefined ? undefined : decodeAfterCursor(ctx, DELIVERIES_CURSOR, webhook.id, query.cursor);
    const rows = await store.webhooks.listDeliveries(webhook.id, limit + 1, before);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const hasMore = rows.length > limit;
    return {
      data: page.map(presentDelivery),
      pagination: { limit, has_more: hasMore, ...(hasMore ? { next_cursor: encodeAfterCursor(ctx, DELIVERIES_CURSOR, webhook.id, last) } : {}) },
      meta: meta(request),
    };
  });
}

/** A cursor's purpose, signed with it: one of a list is no cursor of another. */
const DELIVERIES_CURSOR = 'deliveries';
const LIST_CURSOR = 'webhooks';

/** A signed position after `last` in a list of `scope` (a webhook's deliveries, an account's webhooks). */
function encodeAfterCursor(ctx: ServerContext, purpose: string, scope: string, last: { created_at: string; id: string }): string {
  const payload = Buffer.from(JSON.stringify({ w: scope, c: last.created_at, i: last.id })).toString('base64url');
  return `${payload}.${ctx.signer.sign(purpose, payload)}`;
}

function decodeAfterCursor(ctx: ServerContext, purpose: string, scope: string, cursor: string): { created_at: string; id: string } {
  const invalid = () => new ApiError('invalid_parameter', `Invalid cursor: it is malformed, altered, or from another ${purpose === LIST_CURSOR ? 'list' : 'webhook'}.`, 'cursor');
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined || !ctx.signer.verify(purpose, payload, signature)) throw invalid();
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { w?: unknown; c?: unknown; i?: unknown };
    if (parsed.w !== scope || typeof parsed.c !== 'string' || typeof parsed.i !== 'string') throw invalid();
    return { created_at: parsed.c, id: parsed.i };
  } catch {
    throw invalid();
  }
}
