// A server SIGKILLed in the middle of a burst of deliveries, then started again at once: every
// event reaches the receiver at least once, and each is recorded as delivered exactly once.
import { execa, type ResultPromise } from 'execa';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BolagEvent } from '../../src/core/events.js';
import { newId } from '../../src/core/ids.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { openStore } from '../../src/store/open-store.js';
import { ensureBuilt, ROOT } from '../exports/built.js';
import { call, startReceiver, waitFor, type Receiver } from './helpers.js';

const EVENTS = 400;

let dir: string;
let child: ResultPromise | undefined;
let server: RunningServer | undefined;
let receiver: Receiver;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'bolag-delivery-kill-'));
  receiver = await startReceiver();
}, 180_000);
afterAll(async () => {
  child?.kill('SIGKILL');
  await server?.close();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('delivers every event at least once and records each once, across a SIGKILL and an immediate restart', async () => {
  const dbPath = join(dir, 'register.db');
  const script = join(dir, 'server.mjs');
  writeFileSync(
    script,
    `
    const { startServer } = await import(${JSON.stringify(join(ROOT, 'dist/src/server/start.js'))});
    const s = await startServer({ port: 0, dbPath: ${JSON.stringify(dbPath)}, seedCount: 200, allowInsecureWebhooks: true, rateLimit: { max: 0, windowMs: 60000 } });
    console.log(JSON.stringify({ url: s.url, key: s.apiKey }));
    `,
  );
  child = execa('node', [script], { reject: false, buffer: false });
  const ready = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    child!.stdout!.on('data', (c: Buffer) => resolve(JSON.parse(c.toString())));
    child!.on('exit', () => reject(new Error('the server exited')));
  });
  const hook = (await call(ready.url, ready.key, 'POST', '/webhooks', { url: `${receiver.url}/in`, events: ['company.updated'] })).body.data;
  const side = await openStore({ dbPath });
  const ids: string[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const event: BolagEvent = { id: newId('evt'), type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: 'c1', org_nr: '556000-0001', changed_fields: ['name'] } };
    ids.push(event.id);
    await side.outbox.append(event, null, { county: '01', status: 'aktiv' });
  }
  await side.close();
  await waitFor(() => receiver.received.length >= 20, { what: 'the burst under way' });
  child.kill('SIGKILL');
  await child;
  child = undefined;
  const atKill = receiver.received.length;

  server = await startServer({ port: 0, dbPath, allowInsecureWebhooks: true, rateLimit: { max: 0, windowMs: 60_000 } });
  const received = () => new Set(receiver.received.map((r) => String(r.headers['bolag-event-id'])));
  // Bounded below the 35 s delivery lease: the restart takes the dead process's leases over.
  await waitFor(() => ids.every((id) => received().has(id)), { timeoutMs: 25_000, what: `all ${EVENTS} events delivered (${atKill} before the kill)` });

  const recorded: { event_id: string; status_code: number | null }[] = [];
  let cursor = '';
  for (;;) {
    const page = (await call(server.url, ready.key, 'GET', `/webhooks/${hook.id}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).body;
    recorded.push(...page.data);
    if (!page.pagination?.has_more) break;
    cursor = encodeURIComponent(page.pagination.next_cursor);
  }
  const successes = new Map<string, number>();
  for (const d of recorded) if (d.status_code !== null && d.status_code < 300) successes.set(d.event_id, (successes.get(d.event_id) ?? 0) + 1);
  expect(ids.filter((id) => successes.get(id) !== 1)).toEqual([]);
  expect(atKill).toBeLessThan(EVENTS);
}, 120_000);
