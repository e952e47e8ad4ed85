// Retention for SQLite: deletes in batches by rowid, so no write transaction holds the
// database for long while the server keeps serving.
import type { RetentionCutoffs, RetentionRepository, RowCounts, SweepResult } from '../retention.js';
import type { Db } from './database.js';

export class SqliteRetentionRepository implements RetentionRepository {
  constructor(private readonly db: Db) {}

  async sweep(c: RetentionCutoffs, batch: number): Promise<SweepResult> {
    const jobs = this.deleteAll(`SELECT rowid FROM jobs WHERE state IN ('done', 'failed') AND run_at < ?`, [c.finishedJobsBefore.getTime()], 'jobs', batch);
    const deliveries = this.deleteAll('SELECT rowid FROM deliveries WHERE created_at < ?', [c.deliveriesBefore.toISOString()], 'deliveries', batch);
    const idempotencyKeys = this.deleteAll('SELECT rowid FROM idempotency_keys WHERE created_at < ?', [c.idempotencyKeysBefore.toISOString()], 'idempotency_keys', batch);
    // Only what every reader of the outbox (the fan-out's durable cursor) has passed.
    const passed = (this.db.prepare('SELECT min(seq) FROM outbox_cursors').pluck().get() as number | null) ?? 0;
    const events = this.deleteAll('SELECT rowid FROM outbox WHERE seq <= ? AND created_at < ?', [passed, c.eventsBefore.toISOString()], 'outbox', batch);
    const exports: string[] = [];
    const before = c.exportsBefore.toISOString();
    const pick = this.db.prepare(
      `SELECT id FROM exports WHERE (expires_at IS NOT NULL AND expires_at < ?) OR (status = 'failed' AND created_at < ?) LIMIT ?`,
    );
    const remove = this.db.prepare('DELETE FROM exports WHERE id = ?');
    for (;;) {
      const ids = pick.pluck().all(before, before, batch) as string[];
      this.db.transaction(() => ids.forEach((id) => remove.run(id)))();
      exports.push(...ids);
      if (ids.length < batch) break;
    }
    return { jobs, deliveries, exports, idempotencyKeys, events };
  }

  async rowCounts(): Promise<RowCounts> {
    const count = (from: string) => this.db.prepare(`SELECT count(*) FROM ${from}`).pluck().get() as number;
    return {
      queued_jobs: count("jobs WHERE state = 'queued'"),
      finished_jobs: count("jobs WHERE state <> 'queued'"),
      deliveries: count('deliveries'),
      exports: count('exports'),
      idempotency_keys: count('idempotency_keys'),
      outbox: count('outbox'),
    };
  }

  private deleteAll(select: string, params: unknown[], table: string, batch: number): number {
    const del = this.db.prepare(`DELETE FROM ${table} WHERE rowid IN (${select} LIMIT ?)`);
    let total = 0;
    for (;;) {
      const n = del.run(...params, batch).changes;
      total += n;
      if (n < batch) return total;
    }
  }
}
