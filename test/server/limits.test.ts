// The limits a client can count on, over HTTP: a body over 1 MB is 413 payload_too_large,
// page sizes run from 1 to 100 (never clamped) on every list, and an Idempotency-Key is
// remembered for 24 hours, then free again. On SQLite, and on PostgreSQL under the postgres project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../../src/server/api-keys.js';
import { call, startTestServer, type TestServer } from '../webhooks/helpers.js';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ seedCount: 50 });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('limits', () => {
  it('a body over 1 MB is 413 payload_too_large in the contract shape; just under it is read', async () => {
    const over = JSON.stringify({ format: 'csv', pad: 'x'.repeat(1024 * 1024) });
    const res = await fetch(`${s.url}/exports`, { method: 'POST', headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' }, body: over });
    expect(res.status).toBe(413);
    const body = await res.json();
    expect(body.error.code).toBe('payload_too_large');
    expect(body.meta.request_id).toBe(res.headers.get('request-id'));
    // Under the limit the body is parsed (and refused for its unknown key, not its size).
    const under = await call(s.url, s.apiKey, 'POST', '/exports', { format: 'csv', pad: 'x'.repeat(1000 * 1000) });
    expect(under.status).toBe(400);
  });

  it('page sizes are 1 to 100 on every list; 0 and 101 are refused, never clamped', async () => {
    const hook = await call(s.url, s.apiKey, 'POST', '/webhooks', { url: 'https://example.com/hook', events: ['company.updated'] });
    for (const path of ['/companies', '/exports', `/webhooks/${hook.body?.data?.id}/deliveries`]) {
      for (const limit of ['0', '101']) {
        const r = await call(s.url, s.apiKey, 'GET', `${path}?limit=${limit}`);
        expect(r.status, `${path}?limit=${limit}`).toBe(400);
        expect(r.body.error.param).toBe('limit');
      }
      expect((await call(s.url, s.apiKey, 'GET', `${path}?limit=100`)).status, path).toBe(200);
    }
  });

  it('a list filter takes at most 100 distinct items, on searches and exports (each item is a condition of the query)', async () => {
    // Found by a review (2026-11-27): 800 postal codes held a SQLite server up for 30 s, and 500
    // SNI codes passed SQLite's expression depth (a 500); on PostgreSQL 1,000 SNI codes with a
    // sort took 10 s a search.
    const codes = (n: number, step: number) => Array.from({ length: n }, (_, i) => String(10000 + i * step)).join(',');
    for (const [param, list] of [['postal_code', codes(101, 67)], ['sni', codes(600, 89)]] as const) {
      const search = await call(s.url, s.apiKey, 'GET', `/companies?${param}=${list}`);
      expect(search.status, param).toBe(400);
      expect(search.body.error).toMatchObject({ code: 'invalid_parameter', param });
      expect(search.body.error.message).toContain('at most 100 items');
      const exp = await call(s.url, s.apiKey, 'POST', '/exports', { format: 'csv', filters: { [param]: list } });
      expect(exp.status, param).toBe(400);
    }
    // A hundred, and duplicates beyond them, are taken.
    expect((await call(s.url, s.apiKey, 'GET', `/companies?postal_code=${codes(100, 67)}`)).status).toBe(200);
    expect((await call(s.url, s.apiKey, 'GET', `/companies?county=${Array(300).fill('01').join(',')}`)).status).toBe(200);
  });

  it('an Idempotency-Key is kept for 24 hours, then free for another request', async () => {
    const { account } = await issueKey(s.store, { account: 'idempotency-window', plan: 'free', scopes: ['exports:create'] });
    const t0 = new Date('2030-01-01T00:00:00Z');
    const repo = s.store.exports;
    expect(await repo.reserveIdempotencyKey(account.id, 'k', 'body-a', t0)).toBeNull();
    await repo.completeIdempotencyKey(account.id, 'k', 202, { ok: true });
    const within = await repo.reserveIdempotencyKey(account.id, 'k', 'body-b', new Date(t0.getTime() + 24 * 3600_000 - 1000));
    expect(within?.request_hash).toBe('body-a');
    expect(await repo.reserveIdempotencyKey(account.id, 'k', 'body-b', new Date(t0.getTime() + 24 * 3600_000 + 1000))).toBeNull();
  });
});
