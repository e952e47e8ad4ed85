// POST /exports, GET /exports, GET /exports/{id} and the signed download links (spec §4.2, §4.3; contract §2.6).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { mayNameRow } from '../../core/ids.js';
import { integerParam } from '../../core/param-types.js';
import { LIMITS } from '../../core/values.js';
import { createExport, validateExportRequest } from '../../exports/create.js';
import { exportForLink, sendDownload, sendPart } from '../../exports/download.js';
import { idempotent, parseIdempotencyKey, requestHash } from '../../exports/idempotency.js';
import { presentExport } from '../../exports/present.js';
import type { StoredExport } from '../../store/exports.js';
import { guard, principalOf } from '../auth.js';
import type { ServerContext } from '../../app/context.js';
import { parseQuery } from '../../core/validate.js';
import { quoted } from '../../core/text.js';
import { sendIdempotent } from '../idempotent-reply.js';

const LIST_QUERY = z
  .strictObject({
    limit: integerParam('Page size.', LIMITS.limitMin, LIMITS.limitMax),
    cursor: z.string().min(1).max(200),
  })
  .partial();

const LINK_QUERY = z.strictObject({ expires: z.string().optional(), signature: z.string().optional() });

/** A link's expires and signature; given twice (an array), with another parameter or otherwise odd, the link is not ours. */
function linkQuery(query: unknown): z.output<typeof LINK_QUERY> {
  const parsed = LINK_QUERY.safeParse(query ?? {});
  if (!parsed.success) throw new ApiError('forbidden', 'This download link is not valid: its signature does not match.');
  return parsed.data;
}

export function exportRoutes(api: FastifyInstance, ctx: ServerContext): void {
  const { store, signer } = ctx;

  api.post('/exports', { onRequest: guard(ctx, 'exports:create') }, async (request, reply) => {
    const { account } = principalOf(request);
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    const valid = validateExportRequest(request.body);
    const result = await idempotent(store.exports, account.id, key, requestHash('POST /exports', request.body), async (reservation) => {
      // Made once: the response kept with the key is the one sent.
      let response: { status: number; body: unknown } | undefined;
      const respond = (e: StoredExport) => (response = { status: 202, body: { data: presentExport(ctx, e), meta: { request_id: request.id } } });
      const e = await createExport(ctx, account.id, valid, reservation ? { reservation, respond } : undefined);
      return { ...(response ?? respond(e)), kept: reservation !== null };
    });
    const id = (result.body as { data: { id: string } }).data.id;
    return sendIdempotent(request, reply, result, `${ctx.baseUrl()}/exports/${id}`);
  });

  const readExports = guard(ctx, 'exports:read');

  api.get('/exports', { onRequest: readExports }, async (request) => {
    const { account } = principalOf(request);
    const query = parseQuery(LIST_QUERY, request.query);
    const limit = query.limit ?? LIMITS.limitDefault;
    let after: string | undefined;
    if (query.cursor !== undefined) {
      after = decodeListCursor(query.cursor, account.id);
      if (after === undefined) throw new ApiError('invalid_parameter', 'Invalid cursor: it is malformed or was changed.', 'cursor');
    }
    const rows = await store.exports.list(account.id, limit + 1, after);
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    return {
      data: page.map((e) => presentExport(ctx, e)),
      pagination: { limit, has_more: hasMore, ...(hasMore ? { next_cursor: encodeListCursor(page[page.length - 1].id, account.id) } : {}) },
      meta: { request_id: request.id },
    };
  });

  api.get<{ Params: { id: string } }>('/exports/:id', { onRequest: readExports }, async (request) => {
    const { account } = principalOf(request);
    parseQuery(z.strictObject({}), request.query);
    const e = mayNameRow(request.params.id) ? await store.exports.get(account.id, request.params.id) : null;
    // Another account's export is answered exactly like one that does not exist.
    if (!e) throw new ApiError('not_found', `No export with id ${quoted(request.params.id)}.`);
    return { data: presentExport(ctx, e), meta: { request_id: request.id } };
  });

  // Signed links: no API key; the signature is the permission.
  api.get<{ Params: { id: string } }>('/exports/:id/download', async (request, reply) => {
    const query = linkQuery(request.query);
    const e = await exportForLink(ctx, request.params.id, 'all', query);
    return sendDownload(ctx, e, request, reply);
  });

  api.get<{ Params: { id: string; n: string } }>('/exports/:id/files/:n', async (request, reply) => {
    const query = linkQuery(request.query);
    // A part number as no link writes it (01, 0, 1.0) is a changed link: 403, as any change.
    const n = /^[1-9]\d{0,5}$/.test(request.params.n) ? Number(request.params.n) : NaN;
    if (Number.isNaN(n)) throw new ApiError('forbidden', 'This download link is not valid: its signature does not match.');
    const e = await exportForLink(ctx, request.params.id, n, query);
    return sendPart(ctx, e, n, request, reply);
  });

  function encodeListCursor(lastId: string, accountId: string): string {
    const payload = Buffer.from(lastId).toString('base64url');
    return `${payload}.${signer.sign('exports-list', `${accountId}\n${lastId}`)}`;
  }

  function decodeListCursor(cursor: string, accountId: string): string | undefined {
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) return undefined;
    const lastId = Buffer.from(payload, 'base64url').toString('utf8');
    return signer.verify('exports-list', `${accountId}\n${lastId}`, signature) ? lastId : undefined;
  }
}
