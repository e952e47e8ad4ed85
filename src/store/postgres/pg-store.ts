// The PostgreSQL store: everything any replica needs (register, accounts, jobs, outbox,
// webhooks, exports and their files, rate windows, signing keys) in one database, so that
// several `serve` processes on several machines behave as one service.
import type { Store, StoreLocation } from '../store.js';
import { PgAccountRepository } from './account-repository.js';
import { PgCompanyRepository } from './company-repository.js';
import { PgDb } from './database.js';
import { PgExportFiles } from './export-files.js';
import { PgExportRepository } from './export-repository.js';
import { PgIncarnationRepository } from './incarnation-repository.js';
import { PgJobQueue } from './job-queue.js';
import { LeaseOwner } from '../lease-owner.js';
import { migrate } from './migrations.js';
import { maskDatabaseUrl, maskInText } from './url.js';
import { isStoreUnavailable } from '../unavailable.js';
import { PgOutboxRepository } from './outbox-repository.js';
import { PgRateWindows } from './rate-windows.js';
import { PgRetentionRepository } from './retention-repository.js';
import { PgWebhookRepository } from './webhook-repository.js';

export class PgStore implements Store {
  readonly kind = 'postgres' as const;
  readonly location: StoreLocation;
  readonly companies: PgCompanyRepository;
  readonly accounts: PgAccountRepository;
  readonly exports: PgExportRepository;
  readonly webhooks: PgWebhookRepository;
  readonly outbox: PgOutboxRepository;
  readonly jobs: PgJobQueue;
  readonly exportFiles: PgExportFiles;
  readonly rateWindows: PgRateWindows;
  readonly incarnations: PgIncarnationRepository;
  readonly retention: PgRetentionRepository;

  constructor(readonly db: PgDb) {
    this.location = { databaseUrl: db.url };
    this.companies = new PgCompanyRepository(db);
    this.accounts = new PgAccountRepository(db);
    this.exports = new PgExportRepository(db);
    this.webhooks = new PgWebhookRepository(db);
    this.outbox = new PgOutboxRepository(db);
    const owner = new LeaseOwner();
    this.jobs = new PgJobQueue(db, owner);
    this.incarnations = new PgIncarnationRepository(db, owner);
    this.retention = new PgRetentionRepository(db);
    this.exportFiles = new PgExportFiles(db);
    this.rateWindows = new PgRateWindows(db);
  }

  async exclusively<T>(name: string, fn: () => Promise<T>, onWait?: () => void): Promise<T> {
    // A session lock on a connection of its own, held while fn runs (fn uses the pool as usual).
    const client = await this.db.pool.connect();
    const key = `${this.db.schema}:${name}`;
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key]);
      if (!rows[0].locked) {
        onWait?.();
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
      }
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
      }
    } finally {
      client.release();
    }
  }

  async getOrCreateSetting(name: string, create: () => string): Promise<string> {
    // Whoever inserts first wins; every process then reads the same value.
    await this.db.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, create()]);
    return (await this.db.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name])).rows[0].value;
  }

  async getSetting(name: string): Promise<string | null> {
    return (await this.db.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name])).rows[0]?.value ?? null;
  }

  async setSetting(name: string, value: string | null): Promise<void> {
    if (value === null) await this.db.query('DELETE FROM settings WHERE name = $1', [name]);
    else await this.db.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [name, value]);
  }

  async swapSetting(name: string, expected: string | null, value: string | null): Promise<boolean> {
    if (expected === null && value === null) return (await this.db.query('SELECT 1 FROM settings WHERE name = $1', [name])).rowCount === 0;
    if (expected === null) return (await this.db.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, value])).rowCount === 1;
    if (value === null) return (await this.db.query('DELETE FROM settings WHERE name = $1 AND value = $2', [name, expected])).rowCount === 1;
    return (await this.db.query('UPDATE settings SET value = $1 WHERE name = $2 AND value = $3', [value, name, expected])).rowCount === 1;
  }

  /** Nothing to move off the event loop: PostgreSQL's upkeep is the server's own. */
  startBackgroundUpkeep(): void {}

  async close(): Promise<void> {
    await this.db.close();
  }
}

/**
 * Opens (and migrates) the store at a `postgres://` URL. A bulk reader (an export thread) gets
 * a small pool and skips migrating: its parent process has done it.
 */
export async function openPgStore(url: string, opts: { bulkReader?: boolean; max?: number } = {}): Promise<PgStore> {
  const db = new PgDb(url, { max: opts.max ?? (opts.bulkReader ? 2 : undefined) });
  try {
    if (!opts.bulkReader) await migrate(db);
  } catch (e) {
    await db.close().catch(() => undefined);
    throw cannotConnect(e, url) ?? e;
  }
  return new PgStore(db);
}

/** Not reached, not there, or not let in: the first thing an operator needs is which database. */
const CONNECT_CODES = new Set(['ENOTFOUND', '28P01', '28000', '3D000']);

/**
 * "connect ECONNREFUSED 127.0.0.1:5499" says nothing of a database: the error of a first
 * connection that failed names the database it was for (password masked), and keeps the
 * original as its cause (so it still counts as unavailable where that matters).
 */
function cannotConnect(e: unknown, url: string): Error | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  if (!isStoreUnavailable(e) && !(typeof code === 'string' && CONNECT_CODES.has(code))) return undefined;
  const said = maskInText(e instanceof Error ? e.message : String(e), url).replace(/\.$/, '');
  return new Error(`Cannot open the database ${maskDatabaseUrl(url)}: ${said}.`, { cause: e });
}
