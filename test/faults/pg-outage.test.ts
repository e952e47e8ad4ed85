// PostgreSQL out of reach under load: a server whose database link is cut (through a loopback
// proxy, so the machine's PostgreSQL keeps running for everyone else) answers 503 with
// Retry-After in the contract's shape, quickly, without internals; when the link is back it serves
// fully, and no work is lost: an export that was running completes once with every row, and
// events written while the link was down are delivered, each recorded as delivered once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BolagEvent } from '../../src/core/events.js';
import { newId } from '../../src/core/ids.js';
import { createExportWorker } from '../../src/exports/worker.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { WORKERS } from '../../src/server/workers.js';
import { openPgStore, type PgStore } from '../../src/store/postgres/pg-store.js';
import { DATABASE_URL, dropSchema, freshSchemaUrl, PG_SKIP_REASON } from '../helpers/pg.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { startReceiver, waitFor, type Receiver } from '../webhooks/helpers.js';

const ROWS = 1200;

function companyEvent(): BolagEvent {
  return { id: newId('evt'), type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: 'c1', org_nr: '556000-0001', changed_fields: ['name'] } };
}

async function call(base: string, key: string, method: string, path: string, body?: unknown) {
  const started = Date.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null, ms: Date.now() - started };
}

if (!DATABASE_URL) it.skip(PG_SKIP_REASON, () => {});
else
  describe('PostgreSQL briefly unavailable', () => {
    let proxy: TcpProxy;
    let schema: string;
    let server: RunningServer;
    let side: PgStore;
    let receiver: Receiver;
    const original = [...WORKERS];

    beforeAll(async () => {
      const target = new URL(DATABASE_URL);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const fresh = freshSchemaUrl();
      schema = fresh.schema;
      // The export worker slowed down, so that the cut lands in the middle of a run.
      WORKERS[WORKERS.indexOf(createExportWorker)] = (ctx) =>
        createExportWorker(ctx, { threads: 0, batchRows: 50, afterBatch: () => new Promise((r) => setTimeout(r, 100)), pollMs: 200 });
      server = await startServer({ port: 0, databaseUrl: proxy.via(fresh.url), seedCount: ROWS, exportPartRows: 500, allowInsecureWebhooks: true });
      side = await openPgStore(fresh.url); // straight to PostgreSQL, not through the proxy
      receiver = await startReceiver();
    }, 120_000);

    afterAll(async () => {
      WORKERS.splice(0, WORKERS.length, ...original);
      await proxy?.restore();
      await server?.close();
      await side?.close();
      await receiver?.close();
      await proxy?.close();
      if (schema) await dropSchema(schema);
    });

    it('answers 503 with Retry-After while down, then serves fully and loses no export or event', async () => {
      const key = server.apiKey as string;
      expect(proxy.accepted).toBeGreaterThan(0);
      const hook = await call(server.url, key, 'POST', '/webhooks', { url: `${receiver.url}/in`, events: ['company.updated', 'export.completed'] });
      expect(hook.status).toBe(201);
      const before = companyEvent();
      await side.outbox.append(before, null, { county: '01', status: 'aktiv' });
      await waitFor(() => receiver.received.some((r) => r.headers['bolag-event-id'] === before.id), { what: 'the first delivery' });

      const created = await call(server.url, key, 'POST', '/exports', { format: 'csv', filters: { status: 'all', exclude_advertising_blocked: false } });
      expect(created.status).toBe(202);
      const exportId = created.body.data.id as string;
      await waitFor(async () => {
        const e = (await call(server.url, key, 'GET', `/exports/${exportId}`)).body.data;
        return e.status === 'running' && e.row_count > 0;
      }, { what: 'the export running' });

      await proxy.cut();
      // Written while the server cannot reach its database (another process can).
      const during = companyEvent();
      await side.outbox.append(during, null, { county: '01', status: 'aktiv' });

      // Load while down: every request answers, quickly, 503 in the contract's shape.
      const requests = Array.from({ length: 24 }, (_, i) =>
        [
          () => call(server.url, key, 'GET', '/companies?limit=5'),
          () => call(server.url, key, 'POST', '/exports', { format: 'jsonl' }),
          () => call(server.url, key, 'GET', `/exports/${exportId}`),
          () => call(server.url, key, 'GET', `/webhooks/${hook.body.data.id}/deliveries`),
        ][i % 4](),
      );
      const answers = await Promise.all(requests);
      for (const a of answers) {
        expect(a.status, a.text).toBe(503);
        expect(a.body.error.code).toBe('service_unavailable');
        expect(a.body.meta.request_id).toBe(a.headers.get('request-id'));
        expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(a.text).not.toMatch(/ECONN|127\.0\.0\.1|postgres|terminated|stack/i);
        expect(a.ms).toBeLessThan(6000);
      }
      // Down for a while longer: the workers meet the outage too.
      await new Promise((r) => setTimeout(r, 1500));
      await proxy.restore();

      const back = await waitFor(
        async () => {
          const r = await call(server.url, key, 'GET', '/companies?limit=5');
          return r.status === 200 ? r : null;
        },
        { timeoutMs: 15_000, intervalMs: 200, what: 'service back' },
      );
      expect(back.body.data).toHaveLength(5);

      // The export that was running when the link went completes, once, with every row.
      const done = await waitFor(
        async () => {
          const e = (await call(server.url, key, 'GET', `/exports/${exportId}`)).body.data;
          return e.status === 'completed' || e.status === 'failed' ? e : null;
        },
        { timeoutMs: 45_000, intervalMs: 200, what: 'the export settled' },
      );
      expect(done.status).toBe('completed');
      expect(done.row_count).toBe(ROWS);
      expect(done.files.reduce((n: number, f: { rows: number }) => n + f.rows, 0)).toBe(ROWS);
      const settled = (await side.outbox.readAfter(0, 10_000)).filter((e) => e.event.data.export_id === exportId);
      expect(settled.map((e) => e.event.type)).toEqual(['export.completed']);

      // Both company events delivered, and the export's; each recorded as delivered once.
      const wanted = [before.id, during.id, settled[0].event.id];
      await waitFor(() => wanted.every((id) => receiver.received.some((r) => r.headers['bolag-event-id'] === id)), {
        timeoutMs: 45_000,
        what: 'every event delivered',
      });
      // An attempt made just before the cut is written once the database answers (the worker backs off up to 4 s).
      const successes = async () =>
        (await side.db.query<{ event_id: string }>('SELECT event_id FROM deliveries WHERE status_code BETWEEN 200 AND 299')).rows.map((r) => r.event_id);
      await waitFor(async () => {
        const log = await successes();
        return wanted.every((id) => log.includes(id));
      }, { timeoutMs: 15_000, what: 'every delivery in the log' });
      const log = await successes();
      for (const id of wanted) expect(log.filter((x) => x === id), id).toHaveLength(1);

      // And new work is taken again.
      const again = await call(server.url, key, 'POST', '/exports', { format: 'jsonl', filters: { county: '01' } });
      expect(again.status).toBe(202);
    }, 120_000);

    it('a database host that does not answer (connects hang): 503 within the pool\'s connect timeout, then service', async () => {
      const key = server.apiKey as string;
      proxy.blackhole();
      const answers = await Promise.all([
        call(server.url, key, 'GET', '/companies?limit=5'),
        call(server.url, key, 'GET', '/exports'),
      ]);
      for (const a of answers) {
        expect(a.status, a.text).toBe(503);
        expect(a.body.error.code).toBe('service_unavailable');
        expect(a.headers.get('retry-after')).toBeTruthy();
        expect(a.ms).toBeLessThan(9000); // the pool gives up connecting after 5 s
      }
      await proxy.restore();
      const back = await waitFor(
        async () => {
          const r = await call(server.url, key, 'GET', '/companies?limit=5');
          return r.status === 200 ? r : null;
        },
        { timeoutMs: 15_000, intervalMs: 200, what: 'service back' },
      );
      expect(back.body.data).toHaveLength(5);
    }, 60_000);

    it('a link that flaps (connections reset mid-query, the database back at once) fails no export', async () => {
      const key = server.apiKey as string;
      const created = await call(server.url, key, 'POST', '/exports', { format: 'jsonl', filters: { status: 'all', exclude_advertising_blocked: false } });
      expect(created.status).toBe(202);
      const exportId = created.body.data.id as string;
      await waitFor(async () => (await call(server.url, key, 'GET', `/exports/${exportId}`)).body?.data?.status === 'running', { what: 'the export running' });
      // Every 30 ms for 2 s, whatever is connected is reset: queries in flight fail, the next connect works.
      for (let t = 0; t < 2000; t += 30) {
        proxy.reset();
        await new Promise((r) => setTimeout(r, 30));
      }
      const done = await waitFor(
        async () => {
          const r = await call(server.url, key, 'GET', `/exports/${exportId}`);
          const e = r.status === 200 ? r.body.data : null;
          return e && (e.status === 'completed' || e.status === 'failed') ? e : null;
        },
        { timeoutMs: 45_000, intervalMs: 200, what: 'the export settled' },
      );
      expect(done.error).toBeNull();
      expect(done.status).toBe('completed');
      expect(done.row_count).toBe(ROWS);
      const settled = (await side.outbox.readAfter(0, 10_000)).filter((e) => e.event.data.export_id === exportId);
      expect(settled.map((e) => e.event.type)).toEqual(['export.completed']);
    }, 90_000);
  });
