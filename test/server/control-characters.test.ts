// Control characters from a caller, on both stores (this suite also runs on PostgreSQL:
// test/vitest.config.ts), where PostgreSQL's text cannot even hold NUL: an id in the path with
// one names nothing (404 in the contract's shape, never 500); in free text one separates words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../webhooks/helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ allowInsecureWebhooks: true, seedCount: 50 });
});
afterAll(async () => s?.close());

const IDS = ['%00', 'whk_%00', 'exp_abc%00def', '%01', '%7f', 'a%0a'];
const ROUTES: [string, (id: string) => string][] = [
  ['GET', (id) => `/webhooks/${id}`],
  ['PATCH', (id) => `/webhooks/${id}`],
  ['DELETE', (id) => `/webhooks/${id}`],
  ['POST', (id) => `/webhooks/${id}/rotate-secret`],
  ['POST', (id) => `/webhooks/${id}/test`],
  ['GET', (id) => `/webhooks/${id}/deliveries`],
  ['GET', (id) => `/exports/${id}`],
  ['GET', (id) => `/companies/${id}`],
];

describe('ids no row can have', () => {
  for (const [method, path] of ROUTES) {
    it(`${method} ${path(':id')} answers 404 for each`, async () => {
      for (const id of IDS) {
        const r = await call(s.url, s.apiKey, method, path(id), method === 'PATCH' ? { status: 'active' } : undefined);
        expect(r.status, `${method} ${path(id)}: ${JSON.stringify(r.body)}`).toBe(404);
        expect(r.body.error.code).toBe('not_found');
        expect(r.body.meta.request_id).toMatch(/^req_/);
      }
    });
  }

  it('a signed link to one is refused for its signature, before any lookup', async () => {
    for (const path of ['download', 'files/1']) {
      for (const id of IDS) {
        const r = await call(s.url, '', 'GET', `/exports/${id}/${path}?expires=9999999999&signature=x`);
        expect(r.status, `${path} ${id}: ${JSON.stringify(r.body)}`).toBe(403);
        expect(r.body.error.code).toBe('forbidden');
      }
    }
  });

  it('still asks for a key first', async () => {
    const r = await fetch(`${s.url}/webhooks/%00`);
    expect(r.status).toBe(401);
  });
});

describe('free text', () => {
  it('reads a control character as a space between words', async () => {
    const plain = await call(s.url, s.apiKey, 'GET', '/companies?q=ab&limit=100');
    expect(plain.status).toBe(200);
    expect(plain.body.data.length).toBeGreaterThan(0);
    for (const q of ['%00ab%00', 'ab%00', '%01ab%7f', '%00%00ab']) {
      const r = await call(s.url, s.apiKey, 'GET', `/companies?q=${q}&limit=100`);
      expect(r.status, `q=${q}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.data.map((c: { id: string }) => c.id), `q=${q}`).toEqual(plain.body.data.map((c: { id: string }) => c.id));
    }
    const sorted = await call(s.url, s.apiKey, 'GET', '/companies?q=%00ab&sort=relevance&limit=100');
    expect(sorted.status).toBe(200);
    const none = await call(s.url, s.apiKey, 'GET', '/companies?q=%00');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
  });
});
