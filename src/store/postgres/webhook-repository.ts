import type { AttemptSettlement, StoredDelivery, StoredWebhook, WebhookRepository } from '../webhooks.js';
import type { PgDb, Queryable } from './database.js';
import { settleMany, settlementKey } from './job-queue.js';

const COLUMNS = [
  'id', 'account_id', 'url', 'events', 'filters', 'status', 'secret', 'previous_secret',
  'previous_secret_expires_at', 'consecutive_failures', 'failing_since', 'created_at',
];
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM webhooks`;
const DELIVERY_COLUMNS = 'id, webhook_id, event_id, event_type, attempt, status_code, duration_ms, error, created_at';

function columns(patch: Partial<StoredWebhook>): { names: string[]; values: unknown[] } {
  const names: string[] = [];
  const values: unknown[] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (k === 'id' || !COLUMNS.includes(k) || v === undefined) continue;
    names.push(k);
    values.push(k === 'events' || k === 'filters' ? JSON.stringify(v) : v);
  }
  return { names, values };
}

export class PgWebhookRepository implements WebhookRepository {
  constructor(private readonly db: PgDb) {}

  async create(w: StoredWebhook, opts: { maxPerAccount?: number } = {}): Promise<boolean> {
    const { names, values } = columns(w);
    const insert = `INSERT INTO webhooks (id, ${names.join(', ')}) VALUES ($1, ${names.map((_, i) => `$${i + 2}`).join(', ')})`;
    if (opts.maxPerAccount === undefined) {
      await this.db.query(insert, [w.id, ...values]);
      return true;
    }
    const max = opts.maxPerAccount;
    return this.db.tx(async (client) => {
      // One account's creates take turns (a lock for the transaction, keyed by the account), so
      // two processes never both count 99 and both insert.
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('bolag.webhooks:' || $1, 0))", [w.account_id]);
      const has = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM webhooks WHERE account_id = $1', [w.account_id])).rows[0].n);
      if (has >= max) return false;
      await client.query(insert, [w.id, ...values]);
      return true;
    });
  }

  async get(accountId: string, id: string): Promise<StoredWebhook | null> {
    return (await this.db.query<StoredWebhook>(`${SELECT} WHERE id = $1 AND account_id = $2`, [id, accountId])).rows[0] ?? null;
  }

  async getById(id: string): Promise<StoredWebhook | null> {
    return (await this.db.query<StoredWebhook>(`${SELECT} WHERE id = $1`, [id])).rows[0] ?? null;
  }

  async list(accountId: string): Promise<StoredWebhook[]> {
    return (await this.db.query<StoredWebhook>(`${SELECT} WHERE account_id = $1 ORDER BY created_at, id`, [accountId])).rows;
  }

  async listSubscribed(eventType: string, accountId: string | null): Promise<StoredWebhook[]> {
    const r = await this.db.query<StoredWebhook>(
      `${SELECT} WHERE events ? $1 AND status <> 'disabled' AND ($2::text IS NULL OR account_id = $2) ORDER BY created_at, id`,
      [eventType, accountId],
    );
    return r.rows;
  }

  async update(id: string, patch: Partial<StoredWebhook>): Promise<void> {
    const { names, values } = columns(patch);
    if (names.length === 0) return;
    await this.db.query(`UPDATE webhooks SET ${names.map((n, i) => `${n} = $${i + 2}`).join(', ')} WHERE id = $1`, [id, ...values]);
  }

  async rotateSecret(id: string, secret: string, previousExpiresAt: string): Promise<{ previous_secret: string } | null> {
    const r = await this.db.query<{ previous_secret: string }>(
      'UPDATE webhooks SET previous_secret = secret, secret = $2, previous_secret_expires_at = $3 WHERE id = $1 RETURNING previous_secret',
      [id, secret, previousExpiresAt],
    );
    return r.rows[0] ?? null;
  }

  async disableFailing(id: string, failingSince: string): Promise<boolean> {
    const r = await this.db.query("UPDATE webhooks SET status = 'disabled' WHERE id = $1 AND status = 'failing' AND failing_since = $2", [id, failingSince]);
    return r.rowCount === 1;
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return ((await this.db.query('DELETE FROM webhooks WHERE id = $1 AND account_id = $2', [id, accountId])).rowCount ?? 0) > 0;
  }

  async recordDelivery(d: StoredDelivery): Promise<void> {
    await insertDeliveries(this.db, [d]);
  }

  async listDeliveries(webhookId: string, limit: number, before?: { created_at: string; id: string }): Promise<StoredDelivery[]> {
    const r = before
      ? await this.db.query<StoredDelivery>(
          `SELECT ${DELIVERY_COLUMNS} FROM deliveries WHERE webhook_id = $1 AND (created_at, id) < ($2, $3)
           ORDER BY created_at DESC, id DESC LIMIT $4`,
          [webhookId, before.created_at, before.id, limit],
        )
      : await this.db.query<StoredDelivery>(`SELECT ${DELIVERY_COLUMNS} FROM deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [
          webhookId,
          limit,
        ]);
    return r.rows;
  }

  async recordOutcome(id: string, ok: boolean, opts: { now: string; failingAfter: number }): Promise<void> {
    await applyOutcome(this.db, id, ok, opts.now, opts.failingAfter);
  }

  async recordAttempts(items: readonly AttemptSettlement[], opts: { failingAfter: number }): Promise<void> {
    if (items.length === 0) return;
    // A batch's round trips do not grow with it: the jobs settled in one statement, the attempts
    // of those still ours inserted in one. No webhook's row is locked here: every process's
    // batches locked their webhooks' rows for the whole transaction, and with four processes
    // delivering to one webhook, two or three waited on it at any moment (up to 0.6 s), their
    // answers unrecorded meanwhile, to be sent again if the process was killed.
    const recorded = await this.db.tx(async (client) => {
      const settled = await settleMany(client, items.map((i) => i.job));
      const ours = items.filter((i): i is AttemptSettlement & { delivery: StoredDelivery } => i.delivery !== null && settled.has(settlementKey(i.job.job)));
      await insertDeliveries(client, ours.map((i) => i.delivery));
      return ours;
    });
    await this.countOutcomes(recorded.map((i) => ({ id: i.delivery.webhook_id, ok: i.ok, at: i.delivery.created_at })), opts.failingAfter);
  }

  /**
   * The webhooks' health after the attempts, in their order, in a transaction of its own: only
   * the rows that change are locked (a failure; a success that ends a run of failures), in one
   * order for every process (two batches over two webhooks in opposite orders deadlocked). A
   * success of a webhook seen healthy writes nothing, as before. A process that dies between the
   * two transactions leaves the health a few attempts behind; the next outcome moves it on.
   */
  private async countOutcomes(outcomes: readonly { id: string; ok: boolean; at: string }[], failingAfter: number): Promise<void> {
    // A success right after a success of the same webhook finds nothing to clear.
    const steps: { id: string; ok: boolean; at: string }[] = [];
    const lastOk = new Map<string, boolean>();
    for (const o of outcomes) {
      if (o.ok && lastOk.get(o.id) === true) continue;
      lastOk.set(o.id, o.ok);
      steps.push(o);
    }
    const failing = new Set(steps.filter((o) => !o.ok).map((o) => o.id));
    const onlyOk = [...new Set(steps.map((o) => o.id))].filter((id) => !failing.has(id));
    const unhealthy = onlyOk.length
      ? (await this.db.query<{ id: string }>("SELECT id FROM webhooks WHERE id = ANY($1::text[]) AND (consecutive_failures <> 0 OR failing_since IS NOT NULL OR status = 'failing')", [onlyOk])).rows.map((r) => r.id)
      : [];
    const hooks = [...failing, ...unhealthy].sort();
    if (hooks.length === 0) return;
    const changing = new Set(hooks);
    await this.db.tx(async (client) => {
      await client.query('SELECT 1 FROM webhooks WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE', [hooks]);
      for (const o of steps) if (changing.has(o.id)) await applyOutcome(client, o.id, o.ok, o.at, failingAfter);
    });
  }
}

async function insertDeliveries(q: Queryable, list: readonly StoredDelivery[]): Promise<void> {
  if (list.length === 0) return;
  await q.query(
    `INSERT INTO deliveries (${DELIVERY_COLUMNS})
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::text[], $9::text[])`,
    [
      list.map((d) => d.id),
      list.map((d) => d.webhook_id),
      list.map((d) => d.event_id),
      list.map((d) => d.event_type),
      list.map((d) => d.attempt),
      list.map((d) => d.status_code),
      list.map((d) => d.duration_ms),
      list.map((d) => d.error),
      list.map((d) => d.created_at),
    ],
  );
}

async function applyOutcome(q: Queryable, id: string, ok: boolean, now: string, failingAfter: number): Promise<void> {
  if (ok) {
    // Written only when there is something to clear, so the common case costs no write.
    await q.query(
      `UPDATE webhooks SET consecutive_failures = 0, failing_since = NULL,
         status = CASE WHEN status = 'disabled' THEN status ELSE 'active' END
       WHERE id = $1 AND (consecutive_failures <> 0 OR failing_since IS NOT NULL OR status = 'failing')`,
      [id],
    );
    return;
  }
  await q.query(
    `UPDATE webhooks SET consecutive_failures = consecutive_failures + 1,
       failing_since = CASE WHEN status = 'active' AND consecutive_failures + 1 >= $2 THEN $3 ELSE failing_since END,
       status = CASE WHEN status = 'active' AND consecutive_failures + 1 >= $2 THEN 'failing' ELSE status END
     WHERE id = $1`,
    [id, failingAfter, now],
  );
}
