// POST /exports: validate the request with the core schemas, count what it will hold, and
// queue it, unless the account already has its limit of exports queued or running. The job is
// queued in the transaction that writes the export row: never an export that nobody will run,
// nor a job that finds no export (a refused create left one, claimed ten times over 8 minutes).
import { ApiError, apiErrorFromZod } from '../core/errors.js';
import { ExportRequestSchema } from '../core/exports.js';
import { newId } from '../core/ids.js';
import { FILTERS_SCHEMA, normalizeFilters, type SearchFilters } from '../core/search-params.js';
import { LIMITS } from '../core/values.js';
import type { ServerContext } from '../app/context.js';
import { parseBody } from '../core/validate.js';
import type { StoredExport } from '../store/exports.js';
import type { Reservation } from './idempotency.js';
import { EXPORT_JOB, wakeExportWorker } from './worker.js';

export interface ValidExportRequest {
  format: StoredExport['format'];
  /** The filters as sent, with exclude_advertising_blocked made explicit (true unless sent false). */
  filters: Record<string, unknown>;
  normalized: SearchFilters;
  fields: string[] | null;
}

export function validateExportRequest(body: unknown): ValidExportRequest {
  const given = (body as { filters?: unknown } | null)?.filters;
  if (given !== null && typeof given === 'object' && !Array.isArray(given)) {
    // The filters first, with the same schema and cross-field rules as search, so that an
    // error names the filter as `filters.<name>`.
    const checked = FILTERS_SCHEMA.safeParse(given);
    if (!checked.success) throw apiErrorFromZod(checked.error, 'invalid_body', 'filters.');
  }
  const request = parseBody(ExportRequestSchema, body);
  const rawFilters: Record<string, unknown> = { ...((given as Record<string, unknown> | undefined) ?? {}) };
  const checked = FILTERS_SCHEMA.safeParse(rawFilters);
  if (!checked.success) throw apiErrorFromZod(checked.error, 'invalid_body', 'filters.');
  const normalized = normalizeFilters(checked.data, { excludeAdvertisingBlocked: true });
  rawFilters.exclude_advertising_blocked = normalized.exclude_advertising_blocked ?? true;
  return { format: request.format, filters: rawFilters, normalized, fields: request.fields ? [...request.fields] : null };
}

/**
 * Counts and queues an export. With `reservation` (an Idempotency-Key's), the export and the
 * response `respond` makes of it are stored in one transaction; a reservation a retry has taken
 * over in the meantime is a 409, and nothing is stored.
 */
export async function createExport(
  ctx: ServerContext,
  accountId: string,
  request: ValidExportRequest,
  keep?: { reservation: Reservation; respond: (e: StoredExport) => { status: number; body: unknown } },
): Promise<StoredExport> {
  const { store } = ctx;
  // Asked first, so that a refused request does not count the register; `create` asks again in
  // its transaction, for races.
  const max = LIMITS.unfinishedExportsPerAccount;
  if ((await store.exports.countUnfinished(accountId)) >= max) throw atLimit(max);
  const count = await store.companies.count(request.normalized, LIMITS.countBudgetMs);
  const e: StoredExport = {
    id: newId('exp'),
    account_id: accountId,
    status: 'queued',
    format: request.format,
    filters: request.filters,
    fields: request.fields,
    estimated_rows: count.total,
    row_count: null,
    files: [],
    created_at: new Date().toISOString(),
    completed_at: null,
    expires_at: null,
    error: null,
  };
  const response = keep && { ...keep.reservation, ...keep.respond(e) };
  const job = { kind: EXPORT_JOB, payload: { export_id: e.id, account_id: accountId }, key: `${EXPORT_JOB}:${e.id}` };
  const outcome = await store.exports.create(e, { response, maxUnfinished: max, job });
  if (outcome === 'taken_over') {
    throw new ApiError('idempotency_conflict', 'A retry with this Idempotency-Key took over this request; its response is the one kept.', 'Idempotency-Key');
  }
  if (outcome === 'at_limit') throw atLimit(max);
  wakeExportWorker(ctx);
  return e;
}

function atLimit(max: number): ApiError {
  return new ApiError('rate_limited', `This account already has ${max} exports queued or running; another can be created once one of them has finished (GET /exports lists them).`, undefined, {
    'Retry-After': String(LIMITS.unfinishedExportsRetryAfterSeconds),
  });
}
