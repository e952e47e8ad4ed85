// Retention over a long dispatcher run: with short windows, the sweeper keeps the jobs,
// deliveries and outbox rows at what is live, however many events flow through; expired
// exports lose their record and files; spent idempotency keys go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BolagEvent } from '../../src/core/events.js';
import { newId } from '../../src/core/ids.js';
import { partFileName } from '../../src/exports/part-writer.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { call, sleep, startReceiver, startTestServer, waitFor, type Receiver, type TestServer } from './helpers.js';

// 1,200 events at ~600/s: what is finished plateaus near 3 rows × 600/s × the window and the
// sweep (about 600 here once deliveries keep up), well under what the flow produces.
const ROUNDS = 40;
const PER_ROUND = 30;
const WINDOW_MS = 300;

let s: TestServer;
let r: Receiver;
beforeAll(async () => {
  s = await startTestServer({
    allowInsecureWebhooks: true,
    retention: { finishedJobsMs: WINDOW_MS, deliveryLogMs: WINDOW_MS, eventsMs: WINDOW_MS, idempotencyKeysMs: WINDOW_MS, expiredExportsMs: WINDOW_MS, everyMs: 100 },
  });
  r = await startReceiver();
});
afterAll(async () => {
  await r?.close();
  await s?.close();
});

const counts = () => s.store.retention.rowCounts();
/** What only retention removes: finished jobs, delivery attempts and events (queued work is live). */
const finished = (c: Awaited<ReturnType<typeof counts>>) => c.finished_jobs + c.deliveries + c.outbox;

describe('retention', () => {
  it(`keeps jobs, deliveries and events bounded over ${ROUNDS * PER_ROUND} events`, async () => {
    expect((await call(s.url, s.apiKey, 'POST', '/webhooks', { url: `${r.url}/in`, events: ['company.updated'] })).status).toBe(201);
    const start = await counts();
    const samples: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < PER_ROUND; i++) {
        const event: BolagEvent = { id: newId('evt'), type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: 'c1', org_nr: '556000-0001', changed_fields: ['name'] } };
        await s.store.outbox.append(event, null, { county: '01', status: 'aktiv' });
      }
      await sleep(50);
      samples.push(finished(await counts()) - finished(start));
    }
    const produced = ROUNDS * PER_ROUND;
    await waitFor(() => r.received.length >= produced, { timeoutMs: 30_000, what: 'every delivery' });
    // Each event makes one outbox row, one job and one delivery row: without a sweeper the
    // outbox rows alone reach `produced` by the last round, and the finished rows 3 × produced
    // once delivered. With it, what is finished stays about the window's worth of traffic
    // (how much that is depends on how fast this machine delivers).
    const most = Math.max(...samples);
    expect(most).toBeLessThan(produced);
    // Once the flow stops, everything finished ages out.
    const end = await waitFor(async () => {
      const c = await counts();
      return finished(c) - finished(start) <= 0 && c;
    }, { timeoutMs: 10_000, what: 'finished rows swept' });
    let pagesInUse = '';
    if (s.store instanceof SqliteStore) {
      const pages = s.store.db.pragma('page_count', { simple: true }) as number;
      const free = s.store.db.pragma('freelist_count', { simple: true }) as number;
      pagesInUse = `; ${pages - free} pages in use of ${pages}`;
    }
    console.log(`retention: samples ${samples.join(',')}; ${produced} events; finished rows (jobs+deliveries+events) peaked at ${most}, ended at ${finished(end)} (${JSON.stringify(end)})${pagesInUse}`);
  }, 90_000);

  it('removes an export long past its link, with its files, and spent idempotency keys', async () => {
    const created = await fetch(`${s.url}/exports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'retention-1' },
      body: JSON.stringify({ format: 'csv', filters: { county: '01' } }),
    });
    expect(created.status).toBe(202);
    const id = (await created.json()).data.id as string;
    await waitFor(async () => (await call(s.url, s.apiKey, 'GET', `/exports/${id}`)).body.data.status === 'completed');
    // Its one part, a file beside SQLite's database or rows in PostgreSQL.
    const part = partFileName(1, 'csv');
    expect(await s.store.exportFiles.size(id, part)).toBeGreaterThan(0);
    await s.store.exports.update(id, { expires_at: new Date(Date.now() - 1000).toISOString() });
    await waitFor(async () => (await call(s.url, s.apiKey, 'GET', `/exports/${id}`)).status === 404, { what: 'export record swept' });
    // The sweeper deletes the record, then the files.
    await waitFor(async () => (await s.store.exportFiles.size(id, part)) === null, { what: 'export files removed' });
    await waitFor(async () => (await counts()).idempotency_keys === 0, { what: 'idempotency key swept' });
  });
});
