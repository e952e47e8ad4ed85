// The one storage interface. Callers (server, workers, CLI admin commands) see only this;
// src/store/sqlite/ and src/store/postgres/ implement it. No SQL lives outside src/store/.
import type { Company } from '../core/company.js';
import type { SearchFilters, SearchQuery } from '../core/search-params.js';
import type { AccountRepository } from './accounts.js';
import type { ExportRepository } from './exports.js';
import type { WebhookRepository } from './webhooks.js';
import type { OutboxRepository } from './outbox.js';
import type { RetentionRepository } from './retention.js';
import type { ImportOptions, ImportPlanner, ImportRecord, ImportRecords, ImportResult } from './import-types.js';

/** Where a keyset page starts: the sort value and id of the last row of the previous page. */
export interface KeysetPosition {
  value: string | number | null;
  id: string;
}

export interface SearchPage {
  rows: Company[];
  /** Position after the last row, when more rows follow. */
  next: KeysetPosition | null;
}

export interface CountResult {
  total: number;
  estimated: boolean;
}

export interface CompanyRepository {
  search(query: SearchQuery, after: KeysetPosition | null): Promise<SearchPage>;
  count(filters: SearchFilters, budgetMs: number): Promise<CountResult>;
  /** By public id or by org_nr (with or without hyphen), any status. */
  get(idOrOrgNr: string, opts?: { expand?: readonly string[] }): Promise<Company | null>;
  /**
   * The matching companies whose row number (the number in their id) is in (afterRow, untilRow],
   * in id order, in one read: exports read a large result as such slices, several at a time.
   */
  slice(filters: SearchFilters, afterRow: number, untilRow: number, opts?: { expand?: readonly string[] }): Promise<Company[]>;
  /** The highest row number in use, 0 when the register is empty. */
  lastRow(): Promise<number>;
  /** Every matching company in id order, read in batches so memory stays bounded. */
  stream(filters: SearchFilters, opts?: { batchSize?: number; expand?: readonly string[] }): AsyncIterable<Company>;
  /**
   * Upserts by org_nr and writes the implied events to the outbox, in one transaction (or, with
   * `atomic: false`, one per batch). Records are compared with the register a batch at a time.
   */
  importRecords(records: ImportRecords, plan: ImportPlanner, opts?: ImportOptions): Promise<ImportResult>;
  /** Replaces the whole register with these companies (the seeder's fast path). */
  bulkLoad(batches: AsyncIterable<readonly Company[]>, total: number, onProgress?: (done: number, total: number, phase: 'rows' | 'indexes') => void): Promise<number>;
  /**
   * Optional: generates and loads the seeded register itself (in parallel, say), the same
   * companies generateBatches(seed, count) yields. Stores without it get bulkLoad.
   */
  seedGenerated?(seed: string, count: number, onProgress?: (done: number, total: number, phase: 'rows' | 'indexes') => void): Promise<number>;
  stats(): Promise<Record<string, number>>;
}

/** A unit of durable background work (export runs, webhook deliveries). */
export interface Job {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  runAt: Date;
  /**
   * The token of this claim. Extending, completing, retrying or failing takes effect only while
   * it is still the job's current lease: once a lease lapsed and another worker claimed the job,
   * the first worker's late settlement does nothing.
   */
  lease: string;
}

/** What settles a claimed job: its id and the token of the claim. */
export type JobClaim = Pick<Job, 'id' | 'lease'>;

export interface JobQueue {
  enqueue(kind: string, payload: Record<string, unknown>, opts?: { runAt?: Date; key?: string }): Promise<string>;
  /**
   * Claims the next due job of these kinds for `leaseMs`, exactly once across every process on
   * the database. A job whose lease ran out (its worker died) is due again, so a crash loses nothing.
   */
  claim(kinds: readonly string[], leaseMs: number): Promise<Job | null>;
  /** Extends the lease of a claimed job; false when the claim is no longer ours (stop working on it). */
  extend(job: JobClaim, leaseMs: number): Promise<boolean>;
  /** The settlements below return false, and change nothing, when the claim is no longer current. */
  complete(job: JobClaim): Promise<boolean>;
  /** Puts the job back to run at `runAt`, counting the attempt. */
  retry(job: JobClaim, runAt: Date, error: string): Promise<boolean>;
  /** The values of a payload field (a plain name) among the jobs of this kind under a live lease: the work running now, in any process. */
  leasedValues(kind: string, field: string): Promise<string[]>;
  /** Hands the job back at once without counting an attempt (a graceful stop). */
  release(job: JobClaim): Promise<boolean>;
  fail(job: JobClaim, error: string): Promise<boolean>;
  /** Enqueues several jobs in one transaction; each key dedupes as in enqueue. */
  enqueueMany(jobs: readonly { kind: string; payload: Record<string, unknown>; runAt?: Date; key?: string }[]): Promise<void>;
  /**
   * Claims up to `limit` due jobs of these kinds at once, each for `leaseMs`, oldest due first;
   * `skip` leaves out jobs whose payload field has one of these values, for each field given
   * (deliveries to a webhook, or of an account, that already has its share in flight). `last`
   * puts the jobs whose payload field has one of its values after all others, in the order of
   * those values (exports of the accounts served most recently last). `caps` bound what one
   * claim takes per value of a payload field (deliveries to one webhook, of one account).
   */
  claimMany(kinds: readonly string[], leaseMs: number, limit: number, opts?: ClaimOptions): Promise<Job[]>;
  /** Completes, retries or fails several claimed jobs in one transaction (each only under its current lease). */
  settle(results: readonly JobSettlement[]): Promise<void>;
}

export interface ClaimOptions {
  skip?: readonly JobSkip[];
  last?: JobSkip;
  caps?: readonly JobCap[];
  /**
   * With caps: also walk past the due jobs of values with no room left (their whole backlog, at
   * a cost that grows with it) to find others; without, only a window at the head of the queue
   * is read (`capScan`).
   */
  pastFull?: boolean;
}

/**
 * At most `max` jobs in flight per value of a payload field (a top-level string): `busy` counts
 * those the caller has in flight already, and a claim takes no more than the rest. Jobs without
 * the field are not counted.
 */
export interface JobCap {
  field: string;
  max: number;
  busy: ReadonlyMap<string, number>;
}

/** Jobs to leave out of a claim: those whose payload `field` (a top-level string) is one of `values`. */
export interface JobSkip {
  field: string;
  values: readonly string[];
}

export type JobSettlement =
  | { job: JobClaim; outcome: 'complete' }
  | { job: JobClaim; outcome: 'retry'; runAt: Date; error: string }
  | { job: JobClaim; outcome: 'fail'; error: string };

/** A part file being written: bytes appended in order, then finished (durable, readable) or aborted. */
export interface PartSink {
  write(bytes: Uint8Array): Promise<void>;
  /** Makes the part whole and durable under its name; a finished name never holds a partial file. */
  finish(): Promise<void>;
  abort(): Promise<void>;
}

/** An inclusive byte range of a file. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Export files. SQLite keeps them on disk beside the database; PostgreSQL in the database
 * itself (chunked rows), so that replicas share nothing but the database.
 */
export interface ExportFiles {
  createPart(exportId: string, name: string): Promise<PartSink>;
  /** The size of a finished part, or null when it is not there. */
  size(exportId: string, name: string): Promise<number | null>;
  /** A finished part's bytes (a range of them), streamed. */
  read(exportId: string, name: string, range?: ByteRange): NodeJS.ReadableStream;
  /** Removes every file of an export, finished or not. */
  clear(exportId: string): Promise<void>;
}

/**
 * Per-key request windows shared by every process: a process takes up to `want` tokens of the
 * window at once and hands them out locally, so a request costs no write.
 */
export interface RateWindows {
  /**
   * Takes up to `want` of the `max` tokens of (key, windowStart): how many it got (0 when the
   * window is spent) and how many the window has handed out in all, this take included.
   */
  take(key: string, windowStart: number, want: number, max: number): Promise<{ granted: number; used: number }>;
  /** Gives back tokens taken but not used (best effort). */
  giveBack(key: string, windowStart: number, count: number): Promise<void>;
}

/** One run of a server process (issue 12): the leases its job queue takes are recorded under its id. */
export interface Incarnation {
  id: string;
  /** Host name, boot id and pid namespace: where `pid` means this process. */
  host: string;
  pid: number;
  started_at: string;
}

export interface IncarnationRepository {
  /** Registers this process; from now on the leases this store's job queue takes carry its id. */
  register(i: Incarnation): Promise<void>;
  /** The incarnations registered under this host key. */
  onHost(host: string): Promise<Incarnation[]>;
  /**
   * An incarnation known to be gone (its process is dead, or it closed): hands back every lease
   * it still holds (due at once, no attempt counted) and forgets it. Returns the jobs handed back.
   */
  reap(id: string): Promise<number>;
}

/** Where a store lives: enough for another thread or process to open it with openStore. */
export interface StoreLocation {
  dbPath?: string;
  databaseUrl?: string;
  /** SQLite only: where export files are kept (default: `exports/` beside the database). */
  exportDir?: string;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  readonly location: StoreLocation;
  readonly companies: CompanyRepository;
  readonly accounts: AccountRepository;
  readonly exports: ExportRepository;
  readonly webhooks: WebhookRepository;
  readonly outbox: OutboxRepository;
  readonly jobs: JobQueue;
  readonly exportFiles: ExportFiles;
  readonly rateWindows: RateWindows;
  /**
   * Runs `fn` while holding a lock named `name` across every process on the database, so that
   * work such as creating the register on first start is done by one of several processes
   * starting at once: an advisory lock on PostgreSQL, a lock file beside the database on SQLite
   * (sqlite/file-lock.ts; its processes share one machine). `onWait` is called once when another
   * process holds the lock, before waiting for it.
   */
  exclusively<T>(name: string, fn: () => Promise<T>, onWait?: () => void): Promise<T>;
  /** Which process holds which lease (src/app/incarnation.ts). */
  readonly incarnations: IncarnationRepository;
  /** Deleting what has outlived its use (src/retention/). */
  readonly retention: RetentionRepository;
  /** A named server setting (signing keys), created once and then shared by every process. */
  getOrCreateSetting(name: string, create: () => string): Promise<string>;
  /** A named setting's value, or null when it is not set. */
  getSetting(name: string): Promise<string | null>;
  /** Sets a named setting, or removes it (null). */
  setSetting(name: string, value: string | null): Promise<void>;
  /**
   * Sets a named setting (or removes it: null) only if it is `expected` (null: not set), in one
   * statement; false when another process changed it first.
   */
  swapSetting(name: string, expected: string | null, value: string | null): Promise<boolean>;
  /**
   * For a process that serves for long (`bolag serve`): upkeep that must not run on its event
   * loop, moved to a thread (SQLite's WAL checkpoints: sqlite/background-checkpoints.ts). Stopped by close.
   */
  startBackgroundUpkeep(): void;
  close(): Promise<void>;
}
