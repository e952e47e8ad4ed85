// Property: any query string sent to GET /companies of the real server (over loopback) gets a
// 200 with data and pagination, or a 400 in the contract's error shape; never a 5xx. On SQLite,
// and on PostgreSQL too when DATABASE_URL is set (its text cannot hold NUL, for one).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../src/core/errors.js';
import { SEARCH_PARAMS } from '../../src/core/search-params.js';
import { DATABASE_URL } from '../helpers/pg.js';
import { startPgSearchServer, startSearchServer, type SearchServer } from '../helpers/search-server.js';

const STORES = DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

const NAMES = Object.keys(SEARCH_PARAMS);
const plausible = fc.constantFrom(
  '', ' ', 'true', 'false', '1', '0', '-1', '0.3', '1e6', '0x10', 'NaN', 'Infinity', '9'.repeat(400),
  '2024-02-30', '2020-01-01', '1900-01-01', '59.33,18.06', '91,181', '-0', '100', '101', '500', '500.0001',
  'aktiv', 'all', 'aktiebolag', 'ekonomisk_forening', '01', '0180', 'Västra Götaland', 'göteborg',
  'relevance', 'distance', '-revenue', 'name,revenue', 'latest_financials', 'name,website', 'id',
  'bygg', 'snickeri*', '"unterminated', 'a OR b', 'NEAR(a b)', 'name:x', "'; DROP TABLE companies; --",
  '%', '_', '\\', '\u0000', 'bygg\u0000', '\u0000ab\u0001', '\u202e', '🏢', 'å'.repeat(201), ',,,', '556677-8899', '5566778899',
);
const value = fc.oneof(plausible, fc.string({ unit: 'grapheme', maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.double().map(String), fc.integer().map(String));
const name = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
const query = fc.array(fc.tuple(name, value), { maxLength: 6 });

function queryString(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

describe.each(STORES)('GET /companies with any query (property), on %s', (kind) => {
  let s: SearchServer;
  beforeAll(async () => {
    s = kind === 'postgres' ? await startPgSearchServer() : await startSearchServer();
  });
  afterAll(async () => s?.close());

  it('answers 200 or a 400 in the contract shape, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const res = await fetch(`${s.url}/companies?${queryString(pairs)}`, { headers: { authorization: `Bearer ${s.key}` } });
        const body = await res.json();
        expect(res.headers.get('request-id')).toBeTruthy();
        if (res.status === 200) {
          expect(Array.isArray(body.data)).toBe(true);
          expect(body.pagination).toMatchObject({ limit: expect.any(Number), has_more: expect.any(Boolean) });
          expect(body.meta.request_id).toBe(res.headers.get('request-id'));
        } else {
          expect(res.status).toBe(400);
          expect(ErrorBodySchema.parse(body).error.code).toMatch(/^(invalid_parameter|unknown_parameter)$/);
          expect(body.meta.request_id).toBe(res.headers.get('request-id'));
        }
      }),
      { numRuns: 400 },
    );
  });
});
