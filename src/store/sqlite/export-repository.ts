import type { BolagEvent } from '../../core/events.js';
import type { CreateExportOptions, CreateOutcome, ExportRepository, IdempotencyEntry, StoredExport } from '../exports.js';
import type { Db } from './database.js';
import { insertJob } from './job-queue.js';
import { statementCache } from './statements.js';
import { writeTransaction } from './write-transaction.js';

interface ExportRow {
  id: string;
  account_id: string;
  status: StoredExport['status'];
  format: StoredExport['format'];
  filters: string;
  fields: string | null;
  estimated_rows: number;
  row_count: number | null;
  files: string;
  created_at: string;
  completed_at: string | null;
  expires_at: string | null;
  error: string | null;
}

const JSON_COLUMNS = new Set(['filters', 'fields', 'files', 'error']);

function fromRow(r: ExportRow): StoredExport {
  return {
    ...r,
    filters: JSON.parse(r.filters),
    fields: r.fields ? JSON.parse(r.fields) : null,
    files: JSON.parse(r.files),
    error: r.error ? JSON.parse(r.error) : null,
  };
}

function toColumns(e: Partial<StoredExport>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) out[k] = JSON_COLUMNS.has(k) && v !== null && v !== undefined ? JSON.stringify(v) : v;
  return out;
}

export class SqliteExportRepository implements ExportRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(private readonly db: Db) {
    this.sql = statementCache(db);
  }

  async create(e: StoredExport, opts: CreateExportOptions = {}): Promise<CreateOutcome> {
    const { response, maxUnfinished, job } = opts;
    const cols = toColumns(e);
    const names = Object.keys(cols);
    const insert = () => {
      this.db.prepare(`INSERT INTO exports (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`).run(cols);
      if (job) insertJob(this.sql, job.kind, job.payload, { key: job.key });
    };
    if (!response && maxUnfinished === undefined && !job) {
      insert();
      return 'created';
    }
    // A write transaction: every process's creates take turns, so the count holds under races.
    return writeTransaction(this.db, (): CreateOutcome => {
      if (maxUnfinished !== undefined) {
        if (this.unfinished(e.account_id) >= maxUnfinished) return 'at_limit';
      }
      if (response) {
        const kept = this.db
          .prepare('UPDATE idempotency_keys SET status_code = ?, response = ? WHERE account_id = ? AND key = ? AND created_at = ? AND response IS NULL')
          .run(response.status, JSON.stringify(response.body), e.account_id, response.key, response.reservedAt);
        if (kept.changes !== 1) return 'taken_over';
      }
      insert();
      return 'created';
    });
  }

  async countUnfinished(accountId: string): Promise<number> {
    return this.unfinished(accountId);
  }

  private unfinished(accountId: string): number {
    return (this.db.prepare("SELECT count(*) AS n FROM exports WHERE account_id = ? AND status IN ('queued', 'running')").get(accountId) as { n: number }).n;
  }

  async get(accountId: string, id: string): Promise<StoredExport | null> {
    const r = this.db.prepare('SELECT * FROM exports WHERE id = ? AND account_id = ?').get(id, accountId) as ExportRow | undefined;
    return r ? fromRow(r) : null;
  }

  async getById(id: string): Promise<StoredExport | null> {
    const r = this.db.prepare('SELECT * FROM exports WHERE id = ?').get(id) as ExportRow | undefined;
    return r ? fromRow(r) : null;
  }

  async list(accountId: string, limit: number, afterId?: string): Promise<StoredExport[]> {
    // Newest first; a page continues after the export it ended with.
    const rows = afterId
      ? this.db
          .prepare(
            `SELECT * FROM exports WHERE account_id = ?
               AND (created_at, id) < (SELECT created_at, id FROM exports WHERE id = ? AND account_id = ?)
             ORDER BY created_at DESC, id DESC LIMIT ?`,
          )
          .all(accountId, afterId, accountId, limit)
      : this.db.prepare('SELECT * FROM exports WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?').all(accountId, limit);
    return (rows as ExportRow[]).map(fromRow);
  }

  async expired(before: string, limit: number): Promise<StoredExport[]> {
    const rows = this.db
      .prepare("SELECT * FROM exports WHERE status = 'completed' AND expires_at < ? AND files != '[]' ORDER BY expires_at LIMIT ?")
      .all(before, limit) as ExportRow[];
    return rows.map(fromRow);
  }

  async update(id: string, patch: Partial<StoredExport>): Promise<void> {
    const cols = toColumns(patch);
    delete cols.id;
    const names = Object.keys(cols);
    if (names.length === 0) return;
    this.db.prepare(`UPDATE exports SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id`).run({ ...cols, id });
  }

  async start(id: string): Promise<boolean> {
    const r = this.db
      .prepare("UPDATE exports SET status = 'running', row_count = 0, files = '[]', error = NULL WHERE id = ? AND status IN ('queued', 'running')")
      .run(id);
    return r.changes === 1;
  }

  async settle(id: string, patch: Partial<StoredExport>, event: BolagEvent): Promise<boolean> {
    const cols = toColumns(patch);
    delete cols.id;
    const names = Object.keys(cols);
    return writeTransaction(this.db, () => {
      const r = this.db
        .prepare(`UPDATE exports SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id AND status = 'running'`)
        .run({ ...cols, id });
      if (r.changes !== 1) return false;
      const accountId = this.db.prepare('SELECT account_id FROM exports WHERE id = ?').pluck().get(id) as string;
      this.db
        .prepare('INSERT INTO outbox (account_id, event, subject, created_at) VALUES (?, ?, NULL, ?)')
        .run(accountId, JSON.stringify(event), new Date().toISOString());
      return true;
    });
  }

  async reserveIdempotencyKey(accountId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyEntry | null> {
    const cutoff = new Date(now.getTime() - 24 * 3600 * 1000).toISOString();
    return writeTransaction(this.db, () => {
      this.db.prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND created_at < ?').run(accountId, key, cutoff);
      const inserted = this.db
        .prepare(
          `INSERT INTO idempotency_keys (account_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (account_id, key) DO NOTHING`,
        )
        .run(accountId, key, requestHash, now.toISOString());
      if (inserted.changes === 1) return null;
      const row = this.db
        .prepare('SELECT request_hash, status_code, response, created_at FROM idempotency_keys WHERE account_id = ? AND key = ?')
        .get(accountId, key) as { request_hash: string; status_code: number | null; response: string | null; created_at: string };
      return { ...row, response: row.response === null ? null : JSON.parse(row.response) };
    });
  }

  async completeIdempotencyKey(accountId: string, key: string, statusCode: number, response: unknown): Promise<void> {
    this.db
      .prepare('UPDATE idempotency_keys SET status_code = ?, response = ? WHERE account_id = ? AND key = ?')
      .run(statusCode, JSON.stringify(response), accountId, key);
  }

  async releaseIdempotencyKey(accountId: string, key: string, reservedAt?: string): Promise<void> {
    this.db
      .prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND response IS NULL AND (? IS NULL OR created_at = ?)')
      .run(accountId, key, reservedAt ?? null, reservedAt ?? null);
  }
}
