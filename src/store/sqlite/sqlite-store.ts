// The embedded store: one SQLite file holds the register, accounts, jobs and the outbox.
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Store, StoreLocation } from '../store.js';
import { SqliteAccountRepository } from './account-repository.js';
import { type BackgroundCheckpoints, checkpointInBackground } from './background-checkpoints.js';
import { SqliteCompanyRepository } from './company-repository.js';
import { openDatabase, type Db } from './database.js';
import { lockPath, withFileLock } from './file-lock.js';
import { DiskExportFiles } from './export-files.js';
import { SqliteExportRepository } from './export-repository.js';
import { haversineKm } from './filter-sql.js';
import { SqliteJobQueue } from './job-queue.js';
import { LeaseOwner, SqliteIncarnationRepository } from './incarnation-repository.js';
import { SqliteOutboxRepository } from './outbox-repository.js';
import { SqliteRateWindows } from './rate-windows.js';
import { SqliteRetentionRepository } from './retention-repository.js';
import { SqliteWebhookRepository } from './webhook-repository.js';

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly location: StoreLocation;
  readonly companies: SqliteCompanyRepository;
  readonly accounts: SqliteAccountRepository;
  readonly exports: SqliteExportRepository;
  readonly webhooks: SqliteWebhookRepository;
  readonly outbox: SqliteOutboxRepository;
  readonly jobs: SqliteJobQueue;
  readonly exportFiles: DiskExportFiles;
  readonly rateWindows: SqliteRateWindows;
  readonly retention: SqliteRetentionRepository;
  readonly incarnations: SqliteIncarnationRepository;
  private checkpoints: BackgroundCheckpoints | null = null;

  constructor(readonly db: Db, opts: { exportDir?: string } = {}) {
    const exportDir = opts.exportDir ?? defaultExportDir(db.name);
    this.location = { dbPath: db.name, exportDir };
    db.function('distance_km', { deterministic: true }, (lat1, lng1, lat2, lng2) =>
      lat1 === null || lng1 === null ? null : haversineKm(lat1 as number, lng1 as number, lat2 as number, lng2 as number),
    );
    this.companies = new SqliteCompanyRepository(db);
    this.accounts = new SqliteAccountRepository(db);
    this.exports = new SqliteExportRepository(db);
    const owner = new LeaseOwner();
    this.jobs = new SqliteJobQueue(db, owner);
    this.incarnations = new SqliteIncarnationRepository(db, owner);
    this.retention = new SqliteRetentionRepository(db);
    this.webhooks = new SqliteWebhookRepository(db, this.jobs);
    this.outbox = new SqliteOutboxRepository(db);
    this.exportFiles = new DiskExportFiles(exportDir);
    this.rateWindows = new SqliteRateWindows(db);
  }

  async exclusively<T>(name: string, fn: () => Promise<T>, onWait?: () => void): Promise<T> {
    // An in-memory database is this process's alone.
    if (this.db.memory || !this.db.name) return fn();
    return withFileLock(lockPath(resolve(this.db.name), name), fn, { onWait });
  }

  async getOrCreateSetting(name: string, create: () => string): Promise<string> {
    this.db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, create());
    return this.db.prepare('SELECT value FROM settings WHERE name = ?').pluck().get(name) as string;
  }

  async getSetting(name: string): Promise<string | null> {
    return (this.db.prepare('SELECT value FROM settings WHERE name = ?').pluck().get(name) as string | undefined) ?? null;
  }

  async setSetting(name: string, value: string | null): Promise<void> {
    if (value === null) this.db.prepare('DELETE FROM settings WHERE name = ?').run(name);
    else this.db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(name, value);
  }

  async swapSetting(name: string, expected: string | null, value: string | null): Promise<boolean> {
    if (expected === null && value === null) return this.db.prepare('SELECT 1 FROM settings WHERE name = ?').get(name) === undefined;
    if (expected === null) return this.db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, value).changes === 1;
    if (value === null) return this.db.prepare('DELETE FROM settings WHERE name = ? AND value = ?').run(name, expected).changes === 1;
    return this.db.prepare('UPDATE settings SET value = ? WHERE name = ? AND value = ?').run(value, name, expected).changes === 1;
  }

  startBackgroundUpkeep(): void {
    this.checkpoints ??= checkpointInBackground(this.db);
  }

  async close(): Promise<void> {
    await this.checkpoints?.stop();
    this.checkpoints = null;
    if (this.db.open) this.db.close();
  }
}

/** Export files go beside the database (an in-memory database keeps them in the temp folder). */
function defaultExportDir(dbPath: string): string {
  return dbPath === ':memory:' || dbPath === '' ? join(tmpdir(), 'bolag-exports') : join(dirname(resolve(dbPath)), 'exports');
}

export function openSqliteStore(path: string, opts: { bulkReader?: boolean; exportDir?: string } = {}): SqliteStore {
  return new SqliteStore(openDatabase(path, opts.bulkReader ? { readonly: true, bulkReader: true } : {}), { exportDir: opts.exportDir });
}
