// Two `bolag serve` processes on one SQLite file, as happens when an operator starts a second
// one: 200 companies changed by one `bolag db import` are each delivered once, across both.
// The receiver answers one request at a time (150 ms each), as a single-threaded one does.
// Before, each process sent up to 64 deliveries to it at once: the last in its queue were
// answered (200) after the sender's 10-s timeout, counted as failures and delivered again
// (this test saw 67 of 200 twice, ~70 s apart: the timeout plus the first retry). Each process
// now has at most 4 deliveries in flight per webhook. The retry schedule is shortened here so
// that a wrongly failed delivery would come back within the test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from '../exports/built.js';
import { call, startReceiver, waitFor, type Receiver } from '../webhooks/helpers.js';
import { bolagRun, sleep, startReplica, type Replica } from './helpers.js';

let dir: string;
let replicas: Replica[] = [];
let receiver: Receiver;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'bolag-mp-sqlite-'));
  receiver = await startReceiver();
  // One request at a time: the last in line waits for all before it.
  const each = Number(process.env.BOLAG_MP_RECEIVER_MS ?? 150);
  let free = Date.now();
  receiver.delayMs = () => {
    free = Math.max(free, Date.now()) + each;
    return free - Date.now();
  };
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('delivers each event of a 200-company import once, with two serve processes on one file', async () => {
  const db = join(dir, 'register.db');
  const env = { BOLAG_HOME: join(dir, 'home') };
  const flags = ['--db', db, '--seed-count', '2000', '--allow-insecure-webhooks', '--rate-limit', '0', '--webhook-retry-schedule', '2,5,10'];
  const first = await startReplica(flags, env);
  replicas.push(first);
  replicas.push(await startReplica(flags, env));
  const key = await waitFor(() => first.key(), { what: 'the local account key' });
  const created = await call(first.url, key, 'POST', '/webhooks', { url: `${receiver.url}/hook`, events: ['company.updated'] });
  expect(created.status).toBe(201);

  const companies: any[] = [];
  for (let cursor: string | undefined; companies.length < 200; ) {
    const page = await call(first.url, key, 'GET', `/companies?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    companies.push(...page.body.data);
    cursor = page.body.pagination.next_cursor;
  }
  const file = join(dir, 'changes.jsonl');
  writeFileSync(file, companies.slice(0, 200).map((c) => JSON.stringify({ ...c, name: `${c.name} Omdöpt` })).join('\n') + '\n');
  const imported = await bolagRun(['db', 'import', file, '--db', db], env);
  expect(imported.exitCode, String(imported.stderr)).toBe(0);

  await waitFor(() => new Set(receiver.received.map((r) => r.headers['bolag-event-id'])).size >= 200, { timeoutMs: 120_000, what: '200 events' });
  // Long enough for a second delivery to arrive: past the first retry of a wrongly failed one.
  await sleep(Number(process.env.BOLAG_MP_SETTLE_MS ?? 8000));
  const ids = receiver.received.map((r) => String(r.headers['bolag-event-id']));
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  // When one comes twice, how far apart says why (a retry after a timeout, a lapsed lease, a double claim).
  const gaps = twice.map((id) => {
    const at = receiver.received.filter((r) => r.headers['bolag-event-id'] === id).map((r) => r.at);
    return `${id}: ${at.map((x) => x - at[0]).join(', ')} ms`;
  });
  expect(gaps, 'events delivered more than once').toEqual([]);
  expect(new Set(ids).size).toBe(200);
}, 300_000);
