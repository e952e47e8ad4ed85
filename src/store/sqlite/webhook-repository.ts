import type { AttemptSettlement, StoredDelivery, StoredWebhook, WebhookRepository } from '../webhooks.js';
import type { Db } from './database.js';
import type { SqliteJobQueue } from './job-queue.js';
import { statementCache } from './statements.js';
import { writeTransaction } from './write-transaction.js';

type WebhookRow = Omit<StoredWebhook, 'events' | 'filters'> & { events: string; filters: string };

const fromRow = (r: WebhookRow): StoredWebhook => ({ ...r, events: JSON.parse(r.events), filters: JSON.parse(r.filters) });

function toColumns(w: Partial<StoredWebhook>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...w };
  if (w.events) out.events = JSON.stringify(w.events);
  if (w.filters) out.filters = JSON.stringify(w.filters);
  return out;
}

export class SqliteWebhookRepository implements WebhookRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(
    private readonly db: Db,
    private readonly jobs: SqliteJobQueue,
  ) {
    this.sql = statementCache(db);
  }

  async create(w: StoredWebhook, opts: { maxPerAccount?: number } = {}): Promise<boolean> {
    const cols = toColumns(w);
    const names = Object.keys(cols);
    return writeTransaction(this.db, () => {
      // Counted under the write lock: no other process inserts between the count and the insert.
      if (opts.maxPerAccount !== undefined) {
        const has = this.sql('SELECT count(*) FROM webhooks WHERE account_id = ?').pluck().get(w.account_id) as number;
        if (has >= opts.maxPerAccount) return false;
      }
      this.sql(`INSERT INTO webhooks (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`).run(cols);
      return true;
    });
  }

  async get(accountId: string, id: string): Promise<StoredWebhook | null> {
    const r = this.sql('SELECT * FROM webhooks WHERE id = ? AND account_id = ?').get(id, accountId) as WebhookRow | undefined;
    return r ? fromRow(r) : null;
  }

  async getById(id: string): Promise<StoredWebhook | null> {
    const r = this.sql('SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow | undefined;
    return r ? fromRow(r) : null;
  }

  async list(accountId: string): Promise<StoredWebhook[]> {
    return (this.sql('SELECT * FROM webhooks WHERE account_id = ? ORDER BY created_at, id').all(accountId) as WebhookRow[]).map(fromRow);
  }

  async listSubscribed(eventType: string, accountId: string | null): Promise<StoredWebhook[]> {
    const rows = this.sql(
        `SELECT w.* FROM webhooks w, json_each(w.events) e
         WHERE e.value = ? AND w.status != 'disabled' AND (? IS NULL OR w.account_id = ?)`,
      )
      .all(eventType, accountId, accountId) as WebhookRow[];
    return rows.map(fromRow);
  }

  async update(id: string, patch: Partial<StoredWebhook>): Promise<void> {
    const cols = toColumns(patch);
    delete cols.id;
    const names = Object.keys(cols);
    if (names.length === 0) return;
    this.sql(`UPDATE webhooks SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id`).run({ ...cols, id });
  }

  async rotateSecret(id: string, secret: string, previousExpiresAt: string): Promise<{ previous_secret: string } | null> {
    const row = this.sql('UPDATE webhooks SET previous_secret = secret, secret = ?, previous_secret_expires_at = ? WHERE id = ? RETURNING previous_secret').get(secret, previousExpiresAt, id);
    return (row as { previous_secret: string } | undefined) ?? null;
  }

  async disableFailing(id: string, failingSince: string): Promise<boolean> {
    return this.sql("UPDATE webhooks SET status = 'disabled' WHERE id = ? AND status = 'failing' AND failing_since = ?").run(id, failingSince).changes === 1;
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return this.sql('DELETE FROM webhooks WHERE id = ? AND account_id = ?').run(id, accountId).changes > 0;
  }

  async recordDelivery(d: StoredDelivery): Promise<void> {
    await writeTransaction(this.db, () => this.insertDelivery(d));
  }

  async listDeliveries(webhookId: string, limit: number, before?: { created_at: string; id: string }): Promise<StoredDelivery[]> {
    if (before) {
      return this.sql(
        `SELECT * FROM deliveries WHERE webhook_id = ? AND (created_at < ? OR (created_at = ? AND id < ?))
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      ).all(webhookId, before.created_at, before.created_at, before.id, limit) as StoredDelivery[];
    }
    return this.sql('SELECT * FROM deliveries WHERE webhook_id = ? ORDER BY created_at DESC, id DESC LIMIT ?').all(webhookId, limit) as StoredDelivery[];
  }

  async recordOutcome(id: string, ok: boolean, opts: { now: string; failingAfter: number }): Promise<void> {
    await writeTransaction(this.db, () => this.applyOutcome(id, ok, opts.now, opts.failingAfter));
  }

  async recordAttempts(items: readonly AttemptSettlement[], opts: { failingAfter: number }): Promise<void> {
    if (items.length === 0) return;
    await writeTransaction(this.db, () => {
      for (const { job, delivery, ok } of items) {
        if (!this.jobs.settleOne(job) || !delivery) continue;
        this.insertDelivery(delivery);
        this.applyOutcome(delivery.webhook_id, ok, delivery.created_at, opts.failingAfter);
      }
    });
  }

  private insertDelivery(d: StoredDelivery): void {
    this.sql(
      `INSERT INTO deliveries (id, webhook_id, event_id, event_type, attempt, status_code, duration_ms, error, created_at)
       VALUES (@id, @webhook_id, @event_id, @event_type, @attempt, @status_code, @duration_ms, @error, @created_at)`,
    ).run(d);
  }

  private applyOutcome(id: string, ok: boolean, now: string, failingAfter: number): void {
    if (ok) {
      // Written only when there is something to clear, so the common case costs no write.
      this.sql(
        `UPDATE webhooks SET consecutive_failures = 0, failing_since = NULL,
           status = CASE WHEN status = 'disabled' THEN status ELSE 'active' END
         WHERE id = ? AND (consecutive_failures != 0 OR failing_since IS NOT NULL OR status = 'failing')`,
      ).run(id);
      return;
    }
    this.sql(
      `UPDATE webhooks SET consecutive_failures = consecutive_failures + 1,
         failing_since = CASE WHEN status = 'active' AND consecutive_failures + 1 >= @n THEN @now ELSE failing_since END,
         status = CASE WHEN status = 'active' AND consecutive_failures + 1 >= @n THEN 'failing' ELSE status END
       WHERE id = @id`,
    ).run({ id, n: failingAfter, now });
  }
}
