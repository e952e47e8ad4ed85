// No cross-account access anywhere: another account's export, webhook, deliveries and
// idempotency keys are answered exactly like ids that do not exist (404), never with its data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newKey, startReceiver, startTestServer, waitFor, type Receiver, type TestServer } from '../webhooks/helpers.js';

const ALL = ['companies:read', 'exports:create', 'exports:read', 'webhooks:manage'] as const;

let s: TestServer;
let r: Receiver;
let alice: string;
let bob: string;
let aliceExport: any;
let aliceHook: any;

async function post(key: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  s = await startTestServer({ allowInsecureWebhooks: true });
  r = await startReceiver();
  alice = await newKey(s.store, 'alice', 'pro', [...ALL]);
  bob = await newKey(s.store, 'bob', 'pro', [...ALL]);
  const created = JSON.parse((await post(alice, '/exports', { format: 'csv', filters: { county: '01' } }, { 'idempotency-key': 'shared-key' })).text).data;
  aliceExport = await waitFor(async () => {
    const e = (await call(s.url, alice, 'GET', `/exports/${created.id}`)).body.data;
    return e.status === 'completed' && e;
  });
  aliceHook = (await call(s.url, alice, 'POST', '/webhooks', { url: `${r.url}/alice-secret-path`, events: ['company.updated'] })).body.data;
  await call(s.url, alice, 'POST', `/webhooks/${aliceHook.id}/test`);
  await waitFor(async () => (await call(s.url, alice, 'GET', `/webhooks/${aliceHook.id}/deliveries`)).body.data.length > 0);
});
afterAll(async () => {
  await r?.close();
  await s?.close();
});

describe("another account's resources", () => {
  it('are 404 on every route, with the same body as an id that does not exist, and none of their data', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', `/exports/${aliceExport.id}`],
      ['GET', `/webhooks/${aliceHook.id}`],
      ['PATCH', `/webhooks/${aliceHook.id}`, { events: ['company.created'] }],
      ['DELETE', `/webhooks/${aliceHook.id}`],
      ['POST', `/webhooks/${aliceHook.id}/rotate-secret`],
      ['POST', `/webhooks/${aliceHook.id}/test`],
      ['GET', `/webhooks/${aliceHook.id}/deliveries`],
    ];
    for (const [method, path, body] of routes) {
      const theirs = await call(s.url, bob, method, path, body);
      const missing = await call(s.url, bob, method, path.replace(/(exp|whk)_[A-Za-z0-9_-]+/, '$1_doesnotexist00'), body);
      expect(theirs.status, `${method} ${path}`).toBe(404);
      expect(theirs.body.error.code).toBe('not_found');
      expect(theirs.body.error.message.replace(/(exp|whk)_[A-Za-z0-9_-]+/, 'ID')).toBe(missing.body.error.message.replace(/(exp|whk)_[A-Za-z0-9_-]+/, 'ID'));
      const text = JSON.stringify(theirs.body);
      for (const secret of ['alice-secret-path', aliceHook.secret, aliceExport.download_url, r.url]) expect(text).not.toContain(secret);
    }
    // Nothing changed for alice.
    const still = (await call(s.url, alice, 'GET', `/webhooks/${aliceHook.id}`)).body.data;
    expect(still).toMatchObject({ id: aliceHook.id, events: ['company.updated'], status: 'active' });
  });

  it('do not show up in lists', async () => {
    expect((await call(s.url, bob, 'GET', '/exports')).body.data).toEqual([]);
    expect((await call(s.url, bob, 'GET', '/webhooks')).body.data).toEqual([]);
  });

  it('idempotency keys are per account: the same key and body make bob his own export', async () => {
    const first = await post(bob, '/exports', { format: 'csv', filters: { county: '01' } }, { 'idempotency-key': 'shared-key' });
    expect(first.status).toBe(202);
    const bobs = JSON.parse(first.text).data;
    expect(bobs.id).not.toBe(aliceExport.id);
    expect(first.text).not.toContain(aliceExport.id);
    // and bob's replay is bob's
    const again = await post(bob, '/exports', { format: 'csv', filters: { county: '01' } }, { 'idempotency-key': 'shared-key' });
    expect(JSON.parse(again.text).data.id).toBe(bobs.id);
  });

  it("a download link is bound to its export: alice's signature on bob's export (or a made-up one) is refused", async () => {
    const bobs = (await call(s.url, bob, 'GET', '/exports')).body.data[0];
    const aliceLink = new URL(aliceExport.download_url);
    const forged = `${s.url}/exports/${bobs.id}/download${aliceLink.search}`;
    const res = await fetch(forged);
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('forbidden');
  });
});
