// Retention for PostgreSQL: deletes in batches (short transactions), as on SQLite, so a sweep
// never holds many row locks while the replicas keep serving. Every replica sweeps; the deletes
// are idempotent, so two sweepers only share the work.
import type { RetentionCutoffs, RetentionRepository, RowCounts, SweepResult } from '../retention.js';
import type { PgDb } from './database.js';

export class PgRetentionRepository implements RetentionRepository {
  constructor(private readonly db: PgDb) {}

  async sweep(c: RetentionCutoffs, batch: number): Promise<SweepResult> {
    const jobs = await this.deleteAll('jobs', 'id', "state IN ('done', 'failed') AND run_at < $1", [c.finishedJobsBefore], batch);
    // created_at of deliveries, exports and idempotency keys is ISO 8601 UTC text: it sorts as time.
    const deliveries = await this.deleteAll('deliveries', 'id', 'created_at < $1', [c.deliveriesBefore.toISOString()], batch);
    const idempotencyKeys = await this.deleteAll('idempotency_keys', 'ctid', 'created_at < $1', [c.idempotencyKeysBefore.toISOString()], batch);
    // Only what every reader of the outbox (the fan-out's durable cursor) has passed.
    const passed = Number((await this.db.query<{ seq: string | null }>('SELECT min(seq) AS seq FROM outbox_cursors')).rows[0]?.seq ?? 0);
    const events = await this.deleteAll('outbox', 'seq', 'seq <= $1 AND created_at < $2', [passed, c.eventsBefore], batch);
    const exports: string[] = [];
    const before = c.exportsBefore.toISOString();
    for (;;) {
      const r = await this.db.query<{ id: string }>(
        `DELETE FROM exports WHERE id IN (
           SELECT id FROM exports WHERE (expires_at IS NOT NULL AND expires_at < $1) OR (status = 'failed' AND created_at < $1) LIMIT $2
         ) RETURNING id`,
        [before, batch],
      );
      exports.push(...r.rows.map((row) => row.id));
      if (r.rows.length < batch) break;
    }
    return { jobs, deliveries, exports, idempotencyKeys, events };
  }

  async rowCounts(): Promise<RowCounts> {
    const r = await this.db.query<RowCounts>(
      `SELECT (SELECT count(*) FROM jobs WHERE state = 'queued')::int AS queued_jobs,
              (SELECT count(*) FROM jobs WHERE state <> 'queued')::int AS finished_jobs,
              (SELECT count(*) FROM deliveries)::int AS deliveries,
              (SELECT count(*) FROM exports)::int AS exports,
              (SELECT count(*) FROM idempotency_keys)::int AS idempotency_keys,
              (SELECT count(*) FROM outbox)::int AS outbox`,
    );
    return r.rows[0];
  }

  /** Deletes the rows matching `where`, at most `batch` a statement, until none is left. */
  private async deleteAll(table: string, key: string, where: string, params: unknown[], batch: number): Promise<number> {
    const limit = `$${params.length + 1}`;
    let total = 0;
    for (;;) {
      const r = await this.db.query(`DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ${limit})`, [...params, batch]);
      const n = r.rowCount ?? 0;
      total += n;
      if (n < batch) return total;
    }
  }
}
