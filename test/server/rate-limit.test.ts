// The per-key rate limit: configurable, RateLimit-* headers on every keyed response, 429 with
// Retry-After in the contract's error shape, counted per key, a new window after the old one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RateLimiter } from '../../src/app/rate-limit.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { get, type SearchServer, startSearchServer } from '../helpers/search-server.js';

let s: SearchServer;
beforeAll(async () => {
  s = await startSearchServer({ rateLimit: { max: 5, windowMs: 60_000 } });
});
afterAll(async () => s?.close());

describe('per-key rate limit over HTTP', () => {
  it('counts down, then answers 429 with Retry-After and RateLimit-* headers', async () => {
    const key = await s.keyFor(['companies:read']);
    for (let i = 1; i <= 5; i++) {
      const r = await get(s, '/companies?limit=1', key);
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-limit')).toBe('5');
      expect(r.headers.get('ratelimit-remaining')).toBe(String(5 - i));
      expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    const r = await get(s, '/companies?limit=1', key);
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('rate_limited');
    expect(r.body.meta.request_id).toBe(r.headers.get('request-id'));
    const retry = Number(r.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(r.headers.get('ratelimit-remaining')).toBe('0');
    expect(r.headers.get('ratelimit-reset')).toBe(String(retry));
    // Every route behind a key counts: categories and one company are limited too.
    expect((await get(s, '/categories', key)).status).toBe(429);
  });

  it('is per key: another key of the same account has its own window', async () => {
    const a = await s.keyFor(['companies:read'], 'rate-limit-account');
    const b = await s.keyFor(['companies:read'], 'rate-limit-account');
    for (let i = 0; i < 5; i++) await get(s, '/companies?limit=1', a);
    expect((await get(s, '/companies?limit=1', a)).status).toBe(429);
    expect((await get(s, '/companies?limit=1', b)).status).toBe(200);
  });

  it('does not limit what needs no key', async () => {
    for (let i = 0; i < 8; i++) expect((await get(s, '/openapi.json', null)).status).toBe(200);
  });
});

describe('RateLimiter', () => {
  it('opens a new window when the old one has passed, and reports the seconds left', async () => {
    const store = openSqliteStore(':memory:');
    try {
      const limiter = new RateLimiter(store.rateWindows, 2, 10_000);
      expect((await limiter.hit('k', 0))['RateLimit-Remaining']).toBe('1');
      expect((await limiter.hit('k', 1000))['RateLimit-Reset']).toBe('9');
      await expect(limiter.hit('k', 2000)).rejects.toThrow(/Rate limit/);
      const late = await limiter.hit('k', 9500).catch((e) => e);
      expect(late.headers['Retry-After']).toBe('1');
      expect((await limiter.hit('k', 10_000))['RateLimit-Remaining']).toBe('1');
    } finally {
      await store.close();
    }
  });

  it('holds one limit across processes: limiters sharing a database never let more through', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolag-rate-'));
    const stores = [openSqliteStore(join(dir, 'r.db')), openSqliteStore(join(dir, 'r.db'))];
    try {
      // Like two servers on one database, with blocks bigger than one token.
      const limiters = stores.map((st) => new RateLimiter(st.rateWindows, 500, 60_000, { block: 5 }));
      const now = 120_000;
      let passed = 0;
      for (let i = 0; i < 700; i++) {
        try {
          await limiters[i % 2].hit('shared', now);
          passed++;
        } catch {
          // limited
        }
      }
      expect(passed).toBeLessThanOrEqual(500);
      expect(passed).toBeGreaterThanOrEqual(490);
    } finally {
      for (const st of stores) await st.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
