// The one storage interface. Callers (server, workers, CLI admin commands) see only this;
// src/store/sqlite/ and, later, src/store/postgres/ implement it. No SQL lives outside src/store/.
import type { Company } from '../core/company.js';
import type { SearchFilters, SearchQuery } from '../core/search-params.js';
import type { AccountRepository } from './accounts.js';
import type { ExportRepository } from './exports.js';
import type { WebhookRepository } from './webhooks.js';
import type { OutboxRepository } from './outbox.js';
import type { ImportOptions, ImportPlanner, ImportRecord, ImportResult } from './import-types.js';

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
  importRecords(records: Iterable<ImportRecord> | AsyncIterable<ImportRecord>, plan: ImportPlanner, opts?: ImportOptions): Promise<ImportResult>;
  /** Replaces the whole register with these companies (the seeder's fast path). */
  bulkLoad(batches: AsyncIterable<readonly Company[]>, total: number, onProgress?: (done: number, total: number, phase: 'rows' | 'indexes') => void): Promise<number>;
  stats(): Promise<Record<string, number>>;
}

/** A unit of durable background work (export runs, webhook deliveries). */
export interface Job {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  runAt: Date;
}

export interface JobQueue {
  enqueue(kind: string, payload: Record<string, unknown>, opts?: { runAt?: Date; key?: string }): Promise<string>;
  /**
   * Claims the next due job of these kinds for `leaseMs`. A job whose lease ran out (its
   * worker died) is due again, so a crash loses nothing.
   */
  claim(kinds: readonly string[], leaseMs: number): Promise<Job | null>;
  /** Extends the lease of a claimed job that is still being worked on. */
  extend(jobId: string, leaseMs: number): Promise<void>;
  complete(jobId: string): Promise<void>;
  /** Puts the job back to run at `runAt`, counting the attempt. */
  retry(jobId: string, runAt: Date, error: string): Promise<void>;
  fail(jobId: string, error: string): Promise<void>;
  /** Enqueues several jobs in one transaction; each key dedupes as in enqueue. */
  enqueueMany(jobs: readonly { kind: string; payload: Record<string, unknown>; runAt?: Date; key?: string }[]): Promise<void>;
  /** Claims up to `limit` due jobs of these kinds at once, each for `leaseMs`, oldest due first. */
  claimMany(kinds: readonly string[], leaseMs: number, limit: number): Promise<Job[]>;
  /** Completes, retries or fails several claimed jobs in one transaction. */
  settle(results: readonly JobSettlement[]): Promise<void>;
}

export type JobSettlement =
  | { jobId: string; outcome: 'complete' }
  | { jobId: string; outcome: 'retry'; runAt: Date; error: string }
  | { jobId: string; outcome: 'fail'; error: string };

/** Where a store lives: enough for another thread or process to open it with openStore. */
export interface StoreLocation {
  dbPath?: string;
  databaseUrl?: string;
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
  /** A named server setting (signing keys), created once and then shared by every process. */
  getOrCreateSetting(name: string, create: () => string): Promise<string>;
  close(): Promise<void>;
}
