// The CLI's in-process register runs background work by its database. On SQLite (the local
// register) it runs every worker, so `bolag listen` beside `bolag db import` sees deliveries,
// unless a `bolag serve` runs on the file. On PostgreSQL, the database `bolag serve` processes
// share, it runs none: exports, webhooks and sweeping are the servers', with their settings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BolagEvent } from '../../src/core/events.js';
import { newId } from '../../src/core/ids.js';
import { spawn } from 'node:child_process';
import { hostKey } from '../../src/app/incarnation.js';
import { startLocalRegister } from '../../src/local/local-register.js';
import { openStore } from '../../src/store/open-store.js';
import type { StoreLocation } from '../../src/store/store.js';
import { FANOUT_CURSOR } from '../../src/webhooks/fanout.js';
import { DATABASE_URL, dropSchema, freshSchemaUrl } from '../helpers/pg.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-local-workers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function run(location: StoreLocation) {
  const env = { ...process.env, BOLAG_HOME: dir, BOLAG_SEED_COUNT: '200' };
  const register = await startLocalRegister({ env, location, keyFile: join(dir, `key-${Date.now()}`) });
  const store = await openStore(location);
  try {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${register.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${register.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: await res.json() };
    };
    const cursorBefore = await store.outbox.getCursor(FANOUT_CURSOR);
    expect((await call('POST', '/webhooks', { url: 'https://8.8.8.8/hook', events: ['company.updated'] })).status).toBe(201);
    const event: BolagEvent = { id: newId('evt'), type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: 'c1', org_nr: '556000-0001', changed_fields: ['name'] } };
    await store.outbox.append(event, null, { county: '01', status: 'aktiv' });
    const created = await call('POST', '/exports', { format: 'csv', filters: { county: '01' } });
    expect(created.status).toBe(202);
    let exported = '';
    for (let i = 0; i < 60 && exported !== 'completed'; i++) {
      await sleep(50);
      exported = (await call('GET', `/exports/${created.body.data.id}`)).body.data.status;
    }
    // The fan-out polls within a second of an event it was not told of.
    await sleep(1500);
    exported = (await call('GET', `/exports/${created.body.data.id}`)).body.data.status;
    return { exported, fannedOut: (await store.outbox.getCursor(FANOUT_CURSOR)) > cursorBefore };
  } finally {
    await store.close();
    await register.close();
  }
}

describe('the local register’s background work', () => {
  it('on SQLite: every worker, webhooks fanned out and exports run', async () => {
    expect(await run({ dbPath: join(dir, 'register.db') })).toEqual({ exported: 'completed', fannedOut: true });
  }, 60_000);

  it('on a SQLite file a `bolag serve` runs on: none, which is that server’s work', async () => {
    // What a serve process registers while it runs: an incarnation on this host, under a live pid.
    const serve = spawn('sleep', ['60']);
    const dbPath = join(dir, 'served.db');
    try {
      // Created first (with its own workers: nobody serves it yet), then "served".
      expect(await run({ dbPath })).toEqual({ exported: 'completed', fannedOut: true });
      const store = await openStore({ dbPath });
      try {
        await store.incarnations.register({ id: 'inc_serve', host: hostKey(), pid: serve.pid!, started_at: new Date().toISOString() });
      } finally {
        await store.close();
      }
      expect(await run({ dbPath })).toEqual({ exported: 'queued', fannedOut: false });
      // Once that process is gone, the CLI's register works again on its own.
      serve.kill();
      await new Promise((r) => serve.once('exit', r));
      expect(await run({ dbPath })).toEqual({ exported: 'completed', fannedOut: true });
    } finally {
      serve.kill();
    }
  }, 90_000);

  it.skipIf(!DATABASE_URL)('on PostgreSQL: none, which is the servers’ work', async () => {
    const { url, schema } = freshSchemaUrl();
    try {
      expect(await run({ databaseUrl: url })).toEqual({ exported: 'queued', fannedOut: false });
    } finally {
      await dropSchema(schema);
    }
  }, 60_000);
});
