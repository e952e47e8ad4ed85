// Idempotency-Key for POST /exports (contract §2.6), and POST /webhooks as well: per account, for
// 24 hours. The same key with the same body replays the first response exactly and creates
// nothing; with another body (or another operation), or while the first request is still in
// flight, it is a 409. The keys are kept by the export repository, for both.
import { createHash } from 'node:crypto';
import { ApiError } from '../core/errors.js';
import type { ExportRepository } from '../store/exports.js';

/** A reservation whose request never finished (the process died) is given up after this long. */
const ABANDONED_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  status: number;
  body: unknown;
  /** True when this is the replay of an earlier request's response. */
  replayed: boolean;
}

export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header) || !KEY_PATTERN.test(header)) {
    throw new ApiError('invalid_parameter', 'Invalid Idempotency-Key: send one key of 1 to 255 visible ASCII characters.', 'Idempotency-Key');
  }
  return header;
}

/** A hash of what makes two requests "the same": the operation and the body, with key order ignored. */
export function requestHash(operation: string, body: unknown): string {
  return createHash('sha256').update(`${operation}\n${canonicalJson(body)}`).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The caller's reservation of a key, for `perform` to keep its response with what it writes. */
export interface Reservation {
  key: string;
  reservedAt: string;
}

/**
 * Runs `perform` once per (account, key): a replay returns the stored response. Without a key
 * it simply runs. A failure of `perform` frees the key, so the client may retry with it.
 * `perform` that keeps the response itself, in the transaction of what it writes (`kept`), leaves
 * no moment where what it wrote exists and the key does not say so: a crash there made a retry,
 * a minute later, write it again.
 */
export async function idempotent(
  repo: ExportRepository,
  accountId: string,
  key: string | undefined,
  hash: string,
  perform: (reservation: Reservation | null) => Promise<{ status: number; body: unknown; kept?: boolean }>,
): Promise<StoredResponse> {
  if (key === undefined) {
    const { status, body } = await perform(null);
    return { status, body, replayed: false };
  }
  let reservedAt = new Date();
  let existing = await repo.reserveIdempotencyKey(accountId, key, hash, reservedAt);
  if (existing && existing.response === null && Date.now() - Date.parse(existing.created_at) > ABANDONED_MS) {
    // That reservation only: another retry may have taken it over a moment ago.
    await repo.releaseIdempotencyKey(accountId, key, existing.created_at);
    reservedAt = new Date();
    existing = await repo.reserveIdempotencyKey(accountId, key, hash, reservedAt);
  }
  if (existing) {
    if (existing.request_hash !== hash) {
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was already used with a different request body.', 'Idempotency-Key');
    }
    if (existing.response === null || existing.status_code === null) {
      throw new ApiError('idempotency_conflict', 'A request with this Idempotency-Key is still in progress; retry shortly.', 'Idempotency-Key', {
        'Retry-After': '1',
      });
    }
    return { status: existing.status_code, body: existing.response, replayed: true };
  }
  try {
    const { status, body, kept } = await perform({ key, reservedAt: reservedAt.toISOString() });
    if (!kept) await repo.completeIdempotencyKey(accountId, key, status, body);
    return { status, body, replayed: false };
  } catch (err) {
    await repo.releaseIdempotencyKey(accountId, key, reservedAt.toISOString()).catch(() => undefined);
    throw err;
  }
}
