// The embedded store: one SQLite file holds the register, accounts, jobs and the outbox.
import type { Store, StoreLocation } from '../store.js';
import { SqliteAccountRepository } from './account-repository.js';
import { SqliteCompanyRepository } from './company-repository.js';
import { openDatabase, type Db } from './database.js';
import { SqliteExportRepository } from './export-repository.js';
import { haversineKm } from './filter-sql.js';
import { SqliteJobQueue } from './job-queue.js';
import { LeaseOwner, SqliteIncarnationRepository } from './incarnation-repository.js';
import { SqliteOutboxRepository } from './outbox-repository.js';
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
  readonly retention: SqliteRetentionRepository;
  readonly incarnations: SqliteIncarnationRepository;

  constructor(readonly db: Db) {
    this.location = { dbPath: db.name };
    db.function('distance_km', { deterministic: true }, (lat1, lng1, lat2, lng2) =>
      lat1 === null || lng1 === null ? null : haversineKm(lat1 as number, lng1 as number, lat2 as number, lng2 as number),
    );
    this.companies = new SqliteCompanyRepository(db);
    this.accounts = new SqliteAccountRepository(db);
    this.exports = new SqliteExportRepository(db);
    this.webhooks = new SqliteWebhookRepository(db);
    this.outbox = new SqliteOutboxRepository(db);
    const owner = new LeaseOwner();
    this.jobs = new SqliteJobQueue(db, owner);
    this.incarnations = new SqliteIncarnationRepository(db, owner);
    this.retention = new SqliteRetentionRepository(db);
  }

  async getOrCreateSetting(name: string, create: () => string): Promise<string> {
    this.db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, create());
    return this.db.prepare('SELECT value FROM settings WHERE name = ?').pluck().get(name) as string;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

export function openSqliteStore(path: string, opts: { bulkReader?: boolean } = {}): SqliteStore {
  return new SqliteStore(openDatabase(path, opts.bulkReader ? { readonly: true, bulkReader: true } : {}));
}
