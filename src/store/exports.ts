import type { BolagEvent } from '../core/events.js';
import type { ExportRecord } from '../core/exports.js';

/** The stored export: the API record without its computed links, plus what the worker needs. */
export interface StoredExport {
  id: string;
  account_id: string;
  status: ExportRecord['status'];
  format: ExportRecord['format'];
  filters: Record<string, unknown>;
  fields: string[] | null;
  estimated_rows: number;
  row_count: number | null;
  files: { name: string; rows: number; bytes: number; sha256: string }[];
  created_at: string;
  completed_at: string | null;
  expires_at: string | null;
  error: { code: string; message: string } | null;
}

export interface IdempotencyEntry {
  request_hash: string;
  status_code: number | null;
  response: unknown;
  created_at: string;
}

/** What an Idempotency-Key reserved at `reservedAt` keeps: the response of the request that created the export. */
export interface KeyResponse {
  key: string;
  reservedAt: string;
  status: number;
  body: unknown;
}

/**
 * What `create` did: `taken_over` when the Idempotency-Key's reservation is no longer the
 * caller's (a retry took over a reservation it thought abandoned); `at_limit` when the account
 * already had `maxUnfinished` exports queued or running. Nothing is written in either case.
 */
export type CreateOutcome = 'created' | 'taken_over' | 'at_limit';

/** A job to queue with the row that it works on (in the same transaction). */
export interface NewJob {
  kind: string;
  payload: Record<string, unknown>;
  key?: string;
}

export interface CreateExportOptions {
  /**
   * The account's reservation of an Idempotency-Key gets this response in the same transaction,
   * so a crash leaves both or neither (a retry replays, or creates it once).
   */
  response?: KeyResponse;
  /**
   * The account's queued and running exports are counted in the same transaction, serialised
   * per account across processes, so the limit holds under races.
   */
  maxUnfinished?: number;
  /**
   * The job that runs the export, queued in the same transaction: no worker finds the job before
   * the row, and a refused or interrupted create leaves no job behind.
   */
  job?: NewJob;
}

export interface ExportRepository {
  /** Stores an export (and with `opts`, what goes with it; see CreateExportOptions). */
  create(e: StoredExport, opts?: CreateExportOptions): Promise<CreateOutcome>;
  /** The account's exports queued or running. */
  countUnfinished(accountId: string): Promise<number>;
  get(accountId: string, id: string): Promise<StoredExport | null>;
  getById(id: string): Promise<StoredExport | null>;
  /** Newest first; `afterId` continues after that export. */
  list(accountId: string, limit: number, afterId?: string): Promise<StoredExport[]>;
  update(id: string, patch: Partial<StoredExport>): Promise<void>;
  /**
   * Moves a queued or running export to running from scratch (no rows, no files, no error). False
   * (and nothing written) when it is settled: a worker that took the job over from one whose
   * lease lapsed while settling must not reopen what that one completed.
   */
  start(id: string): Promise<boolean>;
  /** Completed exports of any account whose links expired before `before` and whose files are still listed. */
  expired(before: string, limit: number): Promise<StoredExport[]>;
  /**
   * Moves a running export to its final state and appends its event to the account's outbox,
   * in one transaction. False (and nothing written) when the export was not running, so an
   * export is settled, and its event recorded, exactly once.
   */
  settle(id: string, patch: Partial<StoredExport>, event: BolagEvent): Promise<boolean>;
  /**
   * Reserves an idempotency key atomically: returns null when this caller got it, or the
   * existing entry (response null while the first request is still in flight).
   */
  reserveIdempotencyKey(accountId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyEntry | null>;
  /** Keeps the response of a request that wrote nothing else (an export keeps its own: create). */
  completeIdempotencyKey(accountId: string, key: string, statusCode: number, response: unknown): Promise<void>;
  /**
   * Frees a reservation whose request has no response; with `reservedAt`, only the one made then
   * (two retries taking over an abandoned reservation at once: the later must not free the one
   * the earlier just made, or both would run).
   */
  releaseIdempotencyKey(accountId: string, key: string, reservedAt?: string): Promise<void>;
}
