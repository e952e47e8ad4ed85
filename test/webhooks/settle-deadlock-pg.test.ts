// Two replicas record batches of delivery attempts at once (WebhookRepository.recordAttempts),
// for the same two failing webhooks in opposite orders. Each batch moves the webhooks' rows
// (consecutive_failures); until 2026-11-27 in the order its attempts ended, so two batches could
// deadlock, and PostgreSQL aborted one: its jobs stayed leased, unsettled and uncounted until
// the lease lapsed, off the contract's retry schedule. Now the rows are locked in one order.
import { afterAll, describe, expect, it } from 'vitest';
import { DELIVER_JOB, deliveryJobKey } from '../../src/webhooks/delivery.js';
import { openPgStore, type PgStore } from '../../src/store/postgres/pg-store.js';
import type { AttemptSettlement, StoredWebhook } from '../../src/store/webhooks.js';
import type { Job } from '../../src/store/store.js';
import { DATABASE_URL, dropSchema, freshSchemaUrl, PG_SKIP_REASON } from '../helpers/pg.js';

function hook(id: string): StoredWebhook {
  return {
    id, account_id: 'acc_review', url: 'https://example.com/hook', events: ['company.updated'], filters: {}, status: 'active',
    secret: 'whsec_x', previous_secret: null, previous_secret_expires_at: null, consecutive_failures: 0, failing_since: null,
    created_at: new Date().toISOString(),
  };
}

function failed(job: Job, webhookId: string, n: number): AttemptSettlement {
  const at = new Date();
  return {
    ok: false,
    job: { job, outcome: 'retry', runAt: new Date(at.getTime() + 60_000), error: 'HTTP 500' },
    delivery: { id: `dlv_${job.id}_${n}`, webhook_id: webhookId, event_id: String(job.payload.event_id), event_type: 'company.updated', attempt: 1, status_code: 500, duration_ms: 1, error: 'HTTP 500', created_at: at.toISOString() },
  };
}

function answered(job: Job, webhookId: string): AttemptSettlement {
  const at = new Date().toISOString();
  return {
    ok: true,
    job: { job, outcome: 'complete' },
    delivery: { id: `dlv_${job.id}_ok`, webhook_id: webhookId, event_id: String(job.payload.event_id), event_type: 'company.updated', attempt: 1, status_code: 200, duration_ms: 1, error: null, created_at: at },
  };
}

describe.skipIf(!DATABASE_URL)(`recording delivery attempts from two replicas at once (PostgreSQL) ${DATABASE_URL ? '' : PG_SKIP_REASON}`, () => {
  // Only when the suite runs: without DATABASE_URL there is no URL to make one from.
  const { url, schema } = DATABASE_URL ? freshSchemaUrl() : { url: '', schema: '' };
  const stores: PgStore[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close().catch(() => undefined);
    await dropSchema(schema);
  });

  it('settles every batch, without a deadlock', async () => {
    const x = await openPgStore(url);
    stores.push(x);
    const y = await openPgStore(url);
    stores.push(y);
    await x.webhooks.create(hook('wh_1'));
    await x.webhooks.create(hook('wh_2'));
    const errors: unknown[] = [];
    for (let round = 0; round < 30; round++) {
      const jobs: Record<string, Job> = {};
      for (const [name, w] of [['a', 'wh_1'], ['b', 'wh_2'], ['c', 'wh_2'], ['d', 'wh_1']] as const) {
        const event = `evt_${round}_${name}`;
        await x.jobs.enqueue(DELIVER_JOB, { webhook_id: w, event_id: event, event_type: 'company.updated', body: '{}' }, { key: deliveryJobKey(w, event) });
      }
      for (const j of await x.jobs.claimMany([DELIVER_JOB], 35_000, 4)) jobs[String(j.payload.event_id).split('_')[2]] = j;
      // Replica X's batch: wh_1 then wh_2; replica Y's: wh_2 then wh_1.
      const results = await Promise.allSettled([
        x.webhooks.recordAttempts([failed(jobs.a, 'wh_1', round), failed(jobs.b, 'wh_2', round)], { failingAfter: 1000 }),
        y.webhooks.recordAttempts([failed(jobs.c, 'wh_2', round), failed(jobs.d, 'wh_1', round)], { failingAfter: 1000 }),
      ]);
      for (const r of results) if (r.status === 'rejected') errors.push(r.reason);
    }
    expect(errors).toEqual([]);
    // Every attempt counted and its job given back for its retry.
    const unsettled = await x.db.query("SELECT key FROM jobs WHERE lease IS NOT NULL");
    expect(unsettled.rows).toEqual([]);
    const hooks = await x.db.query<{ id: string; consecutive_failures: number }>('SELECT id, consecutive_failures FROM webhooks ORDER BY id');
    expect(hooks.rows.map((h) => h.consecutive_failures)).toEqual([60, 60]);
  }, 60_000);

  it('records the answers of a healthy webhook without waiting for its row (another process holds it), and counts a failure after', async () => {
    const x = stores[0];
    await x.webhooks.create(hook('wh_busy'));
    const enqueue = async (event: string) => {
      await x.jobs.enqueue(DELIVER_JOB, { webhook_id: 'wh_busy', event_id: event, event_type: 'company.updated', body: '{}' }, { key: deliveryJobKey('wh_busy', event) });
      return (await x.jobs.claimMany([DELIVER_JOB], 35_000, 1))[0];
    };
    const first = await enqueue('evt_busy_1');
    // Another process's transaction holds the webhook's row (a PATCH, another batch's failure).
    const holder = await x.db.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT 1 FROM webhooks WHERE id = 'wh_busy' FOR UPDATE");
      const recorded = x.webhooks.recordAttempts([answered(first, 'wh_busy')], { failingAfter: 1000 }).then(() => 'recorded');
      const waited = new Promise((r) => setTimeout(() => r('waited'), 3000));
      expect(await Promise.race([recorded, waited])).toBe('recorded');
      const done = await x.db.query("SELECT count(*)::int AS n FROM deliveries WHERE webhook_id = 'wh_busy'");
      expect(done.rows[0].n).toBe(1);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    const second = await enqueue('evt_busy_2');
    await x.webhooks.recordAttempts([failed(second, 'wh_busy', 0)], { failingAfter: 1000 });
    const health = await x.db.query<{ consecutive_failures: number }>("SELECT consecutive_failures FROM webhooks WHERE id = 'wh_busy'");
    expect(health.rows[0].consecutive_failures).toBe(1);
  }, 30_000);
});
