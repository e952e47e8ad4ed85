import type { BolagEvent } from '../../core/events.js';
import type { CreateExportOptions, CreateOutcome, ExportRepository, IdempotencyEntry, StoredExport } from '../exports.js';
import type { PgDb, Queryable } from './database.js';
import { insertJob } from './job-queue.js';

const JSON_COLUMNS = new Set(['filters', 'fields', 'files', 'error']);
const COLUMNS = ['id', 'account_id', 'status', 'format', 'filters', 'fields', 'estimated_rows', 'row_count', 'files', 'created_at', 'completed_at', 'expires_at', 'error'];
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM exports`;

/** Column names and values of a patch, JSON columns as JSON text (pg would send arrays as PostgreSQL arrays). */
function columns(patch: Partial<StoredExport>): { names: string[]; values: unknown[] } {
  const names: string[] = [];
  const values: unknown[] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (k === 'id' || !COLUMNS.includes(k) || v === undefined) continue;
    names.push(k);
    values.push(JSON_COLUMNS.has(k) && v !== null ? JSON.stringify(v) : v);
  }
  return { names, values };
}

async function updateWhere(q: Queryable, id: string, patch: Partial<StoredExport>, extra = ''): Promise<number> {
  const { names, values } = columns(patch);
  if (names.length === 0) return 0;
  const set = names.map((n, i) => `${n} = $${i + 2}`).join(', ');
  const r = await q.query(`UPDATE exports SET ${set} WHERE id = $1 ${extra}`, [id, ...values]);
  return r.rowCount ?? 0;
}

async function countUnfinished(q: Queryable, accountId: string): Promise<number> {
  const r = await q.query<{ n: string }>("SELECT count(*) AS n FROM exports WHERE account_id = $1 AND status IN ('queued', 'running')", [accountId]);
  return Number(r.rows[0].n);
}

export class PgExportRepository implements ExportRepository {
  constructor(private readonly db: PgDb) {}

  async create(e: StoredExport, opts: CreateExportOptions = {}): Promise<CreateOutcome> {
    const { response, maxUnfinished, job } = opts;
    const { names, values } = columns(e);
    const insert = `INSERT INTO exports (id, ${names.join(', ')}) VALUES ($1, ${names.map((_, i) => `$${i + 2}`).join(', ')})`;
    if (!response && maxUnfinished === undefined && !job) {
      await this.db.query(insert, [e.id, ...values]);
      return 'created';
    }
    return this.db.tx(async (client) => {
      if (maxUnfinished !== undefined) {
        // One account's creates take turns (a lock for the transaction, keyed by the account),
        // so two processes never both count one below the limit and both insert.
        await client.query("SELECT pg_advisory_xact_lock(hashtextextended('bolag.exports:' || $1, 0))", [e.account_id]);
        if ((await countUnfinished(client, e.account_id)) >= maxUnfinished) return 'at_limit';
      }
      if (response) {
        const kept = await client.query(
          'UPDATE idempotency_keys SET status_code = $1, response = $2 WHERE account_id = $3 AND key = $4 AND created_at = $5 AND response IS NULL',
          [response.status, JSON.stringify(response.body), e.account_id, response.key, response.reservedAt],
        );
        if (kept.rowCount !== 1) return 'taken_over';
      }
      await client.query(insert, [e.id, ...values]);
      if (job) await insertJob(client, job.kind, job.payload, { key: job.key });
      return 'created';
    });
  }

  async countUnfinished(accountId: string): Promise<number> {
    return countUnfinished(this.db, accountId);
  }

  async get(accountId: string, id: string): Promise<StoredExport | null> {
    return (await this.db.query<StoredExport>(`${SELECT} WHERE id = $1 AND account_id = $2`, [id, accountId])).rows[0] ?? null;
  }

  async getById(id: string): Promise<StoredExport | null> {
    return (await this.db.query<StoredExport>(`${SELECT} WHERE id = $1`, [id])).rows[0] ?? null;
  }

  async list(accountId: string, limit: number, afterId?: string): Promise<StoredExport[]> {
    const r = afterId
      ? await this.db.query<StoredExport>(
          `${SELECT} WHERE account_id = $1
             AND (created_at, id) < (SELECT created_at, id FROM exports WHERE id = $2 AND account_id = $1)
           ORDER BY created_at DESC, id DESC LIMIT $3`,
          [accountId, afterId, limit],
        )
      : await this.db.query<StoredExport>(`${SELECT} WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [accountId, limit]);
    return r.rows;
  }

  async update(id: string, patch: Partial<StoredExport>): Promise<void> {
    await updateWhere(this.db, id, patch);
  }

  async expired(before: string, limit: number): Promise<StoredExport[]> {
    const r = await this.db.query<StoredExport>(
      `${SELECT} WHERE status = 'completed' AND expires_at < $1 AND files::text <> '[]' ORDER BY expires_at LIMIT $2`,
      [before, limit],
    );
    return r.rows;
  }

  async start(id: string): Promise<boolean> {
    // Behind a settle that holds the row, the condition is checked again once it commits.
    return (await updateWhere(this.db, id, { status: 'running', row_count: 0, files: [], error: null }, "AND status IN ('queued', 'running')")) === 1;
  }

  async settle(id: string, patch: Partial<StoredExport>, event: BolagEvent): Promise<boolean> {
    return this.db.tx(async (client) => {
      const r = await client.query<{ account_id: string }>(
        `WITH moved AS (
           UPDATE exports SET ${columns(patch).names.map((n, i) => `${n} = $${i + 2}`).join(', ')}
           WHERE id = $1 AND status = 'running' RETURNING account_id
         ) SELECT account_id FROM moved`,
        [id, ...columns(patch).values],
      );
      if (r.rows.length !== 1) return false;
      await client.query('INSERT INTO outbox (account_id, event, subject) VALUES ($1, $2, NULL)', [r.rows[0].account_id, JSON.stringify(event)]);
      return true;
    });
  }

  async reserveIdempotencyKey(accountId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyEntry | null> {
    const cutoff = new Date(now.getTime() - 24 * 3600 * 1000).toISOString();
    return this.db.tx(async (client) => {
      await client.query('DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND created_at < $3', [accountId, key, cutoff]);
      // A concurrent insert of the same key (another process) waits here for the first to commit,
      // then does nothing: exactly one caller gets the key.
      const inserted = await client.query(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, key) DO NOTHING`,
        [accountId, key, requestHash, now.toISOString()],
      );
      if (inserted.rowCount === 1) return null;
      const r = await client.query<IdempotencyEntry>(
        'SELECT request_hash, status_code, response, created_at FROM idempotency_keys WHERE account_id = $1 AND key = $2',
        [accountId, key],
      );
      return r.rows[0] ?? null;
    });
  }

  async completeIdempotencyKey(accountId: string, key: string, statusCode: number, response: unknown): Promise<void> {
    await this.db.query('UPDATE idempotency_keys SET status_code = $1, response = $2 WHERE account_id = $3 AND key = $4', [
      statusCode,
      JSON.stringify(response),
      accountId,
      key,
    ]);
  }

  async releaseIdempotencyKey(accountId: string, key: string, reservedAt?: string): Promise<void> {
    await this.db.query('DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND response IS NULL AND ($3::text IS NULL OR created_at = $3)', [
      accountId,
      key,
      reservedAt ?? null,
    ]);
  }
}
