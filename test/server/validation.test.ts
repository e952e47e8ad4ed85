// GET /companies rejects every rule of spec §4.1/§8 and contract §2.1 with 400 and the right
// param; every error has the contract's shape, meta.request_id and the Request-Id header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, type SearchServer, startSearchServer } from '../helpers/search-server.js';

let s: SearchServer;
beforeAll(async () => {
  s = await startSearchServer();
});
afterAll(async () => s?.close());

function expectError(r: { status: number; headers: Headers; body: any }, status: number, code: string, param?: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.error.code).toBe(code);
  expect(typeof r.body.error.message).toBe('string');
  expect(r.body.error.message.length).toBeGreaterThan(0);
  if (param !== undefined) expect(r.body.error.param).toBe(param);
  expect(r.body.meta.request_id).toMatch(/^req_/);
  expect(r.headers.get('request-id')).toBe(r.body.meta.request_id);
  expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  expect(Object.keys(r.body).sort()).toEqual(['error', 'meta']);
}

const cases: [string, string, string][] = [
  // [query, param, why]
  ['sort=relevance', 'sort', 'relevance without q'],
  ['sort=-relevance', 'sort', 'relevance without q, descending'],
  ['sort=distance', 'sort', 'distance without near'],
  ['sort=-distance&near=59.3,18.0', 'sort', 'farthest first is not offered'],
  ['sort=size', 'sort', 'unknown sort'],
  ['sort=name,revenue', 'sort', 'two sorts'],
  ['limit=0', 'limit', 'limit below 1'],
  ['limit=101', 'limit', 'limit above 100 (rejected, never clamped)'],
  ['limit=2.5', 'limit', 'limit not an integer'],
  ['limit=ten', 'limit', 'limit not a number'],
  [`q=${'x'.repeat(201)}`, 'q', 'q over 200 characters'],
  ['q=', 'q', 'empty q'],
  ['q=%20%20', 'q', 'blank q'],
  ['postal_code=123456', 'postal_code', 'postal code of 6 digits'],
  ['postal_code=12a', 'postal_code', 'postal code with a letter'],
  ['radius_km=5', 'radius_km', 'radius without near'],
  ['near=59.3,18.0&radius_km=501', 'radius_km', 'radius over 500'],
  ['near=59.3,18.0&radius_km=0', 'radius_km', 'radius 0'],
  ['near=59.3,18.0&radius_km=-3', 'radius_km', 'negative radius'],
  ['near=91,18', 'near', 'latitude out of range'],
  ['near=59.3', 'near', 'near without longitude'],
  ['near=north,east', 'near', 'near not numbers'],
  ['revenue_min=10&revenue_max=5', 'revenue_min', 'revenue_min above revenue_max'],
  ['profit_min=10&profit_max=5', 'profit_min', 'profit_min above profit_max'],
  ['revenue_min=lots', 'revenue_min', 'revenue_min not a number'],
  ['equity_ratio_min=0.3x', 'equity_ratio_min', 'equity ratio not a number'],
  ['equity_ratio_min=30', 'equity_ratio_min', 'equity ratio as a percentage, not a fraction'],
  ['registered_from=2020-02-30', 'registered_from', 'not a calendar date'],
  ['registered_to=2020/01/01', 'registered_to', 'not YYYY-MM-DD'],
  ['registered_from=2021-01-01&registered_to=2020-01-01', 'registered_from', 'from after to'],
  ['f_skatt=yes', 'f_skatt', 'boolean that is not true/false'],
  ['include_total=maybe', 'include_total', 'include_total not boolean'],
  ['exclude_advertising_blocked=2', 'exclude_advertising_blocked', 'boolean 2'],
  ['status=open', 'status', 'unknown status'],
  ['legal_form=abc', 'legal_form', 'unknown legal form'],
  ['website_status=yes', 'website_status', 'unknown website status'],
  ['trend=up', 'trend', 'unknown trend'],
  ['employees_class=7', 'employees_class', 'unknown employees class'],
  ['county=99', 'county', 'unknown county'],
  ['municipality=Atlantis', 'municipality', 'unknown municipality'],
  ['category=spaceships', 'category', 'unknown category'],
  ['sni=1234567', 'sni', 'SNI prefix over 5 digits'],
  ['fields=name,password', 'fields', 'unknown field'],
  ['fields=name,__proto__', 'fields', 'a name of every JavaScript object (was taken, and left out)'],
  ['fields=constructor', 'fields', 'a name of every JavaScript object (constructor)'],
  ['fields=name,distance_km', 'fields', 'distance_km named without near'],
  ['fields=latest_financials', 'fields', 'latest_financials named without expand'],
  ['expand=owners', 'expand', 'unknown expand'],
  ['cursor=', 'cursor', 'empty cursor'],
  ['cursor=abc', 'cursor', 'malformed cursor'],
  ['county=01&county=03', 'county', 'a parameter given twice'],
];

describe('GET /companies: each rule is a 400 naming its parameter', () => {
  for (const [qs, param, why] of cases) {
    it(`${why}: ${qs.length > 60 ? qs.slice(0, 60) + '…' : qs}`, async () => {
      const r = await get(s, `/companies?${qs}`, s.key);
      expectError(r, 400, 'invalid_parameter', param);
    });
  }

  it('an unknown parameter is unknown_parameter', async () => {
    expectError(await get(s, '/companies?colour=red', s.key), 400, 'unknown_parameter', 'colour');
    expectError(await get(s, '/companies?county=01&offset=100', s.key), 400, 'unknown_parameter', 'offset');
    expectError(await get(s, '/companies/c_0000001?limit=5', s.key), 400, 'unknown_parameter', 'limit');
    expectError(await get(s, '/categories?all=1', s.key), 400, 'unknown_parameter', 'all');
  });

  it('GET /companies/{id} validates fields and expand', async () => {
    expectError(await get(s, '/companies/c_0000001?fields=nope', s.key), 400, 'invalid_parameter', 'fields');
    expectError(await get(s, '/companies/c_0000001?expand=owners', s.key), 400, 'invalid_parameter', 'expand');
    expectError(await get(s, '/companies/c_0000001?fields=name,distance_km', s.key), 400, 'invalid_parameter', 'fields');
    const withFinancials = await get(s, '/companies/c_0000001?fields=name,latest_financials&expand=latest_financials', s.key);
    expect(withFinancials.status).toBe(200);
    expect(Object.keys(withFinancials.body.data).sort()).toEqual(['id', 'latest_financials', 'name']);
  });

  it('fields may name distance_km with near and latest_financials with expand, the fields that follow them (contract §2.3)', async () => {
    const r = await get(s, '/companies?near=59.33,18.06&radius_km=50&sort=distance&fields=name,distance_km&limit=3', s.key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    for (const c of r.body.data) expect(Object.keys(c).sort()).toEqual(['distance_km', 'id', 'name']);
    const f = await get(s, '/companies?fields=latest_financials&expand=latest_financials&limit=2', s.key);
    expect(f.status, JSON.stringify(f.body)).toBe(200);
    for (const c of f.body.data) expect(Object.keys(c).sort()).toEqual(['id', 'latest_financials']);
  });

  it('accepts the lenient spellings the contract allows', async () => {
    for (const qs of ['legal_form=Ekonomisk_Forening', 'county=stockholms%20l%C3%A4n', 'county=skane', 'municipality=G%C3%B6teborg', 'status=ALL', 'trend=vaxande', 'postal_code=113%2021', 'f_skatt=1', 'limit=100', 'f_skatt=TRUE', 'include_total=False', 'near=59.3,18.0&radius_km=500', 'radius_km=0.5&near=%2059.3%20,%2018.0%20']) {
      const r = await get(s, `/companies?${qs}`, s.key);
      expect(r.status, `${qs}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.headers.get('request-id')).toBe(r.body.meta.request_id);
    }
  });
});

describe('authentication and scopes', () => {
  it('401 without a key, with a malformed header, an unknown key, a revoked key', async () => {
    expectError(await get(s, '/companies', null), 401, 'unauthorized');
    expectError(await get(s, '/companies', null, { authorization: 'Basic dXNlcjpwYXNz' }), 401, 'unauthorized');
    expectError(await get(s, '/companies', null, { authorization: 'Bearer' }), 401, 'unauthorized');
    expectError(await get(s, '/companies', 'bk_not-a-real-key'), 401, 'unauthorized');
    const key = await s.keyFor(['companies:read']);
    expect((await get(s, '/companies?limit=1', key)).status).toBe(200);
    const record = await s.store.accounts.findKeyByHash((await import('../../src/server/api-keys.js')).hashKey(key));
    await s.store.accounts.revokeKey(record!.id);
    const revoked = await get(s, '/companies?limit=1', key);
    expectError(revoked, 401, 'unauthorized');
    // Every 401 says how to authenticate (RFC 9110 §11.6.1); a refused key is an invalid_token (RFC 6750).
    expect((await get(s, '/companies', null)).headers.get('www-authenticate')).toBe('Bearer realm="bolag"');
    expect(revoked.headers.get('www-authenticate')).toBe('Bearer realm="bolag", error="invalid_token"');
  });

  it("takes the scheme's name in any case (RFC 9110 §11.1)", async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const r = await get(s, '/companies?limit=1', null, { authorization: `${scheme} ${s.key}` });
      expect(r.status, `${scheme}: ${JSON.stringify(r.body)}`).toBe(200);
    }
  });

  it('takes one or more spaces after the scheme (RFC 9110 §11.4), and refuses two Authorization headers', async () => {
    expect((await get(s, '/companies?limit=1', null, { authorization: `Bearer   ${s.key}` })).status).toBe(200);
    // Node keeps the first of two such headers: a request with two keys was answered as the first.
    const { request } = await import('node:http');
    const twice = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const url = new URL(`${s.url}/companies?limit=1`);
      const req = request(url, { headers: ['host', url.host, 'authorization', `Bearer ${s.key}`, 'authorization', 'Bearer bk_revoked'] }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect([twice.status, twice.body.error.code, twice.body.error.message]).toEqual([401, 'unauthorized', 'Send one Authorization header, not several.']);
  });

  it('no cache keeps an answer to a key, nor a refusal', async () => {
    expect((await get(s, '/companies?limit=1', s.key)).headers.get('cache-control')).toBe('no-store');
    expect((await get(s, '/companies?limit=1', null)).headers.get('cache-control')).toBe('no-store');
  });

  it('403 insufficient_scope for a key without companies:read, on every read route', async () => {
    const key = await s.keyFor(['exports:create']);
    expectError(await get(s, '/companies', key), 403, 'insufficient_scope');
    expectError(await get(s, '/companies/c_0000001', key), 403, 'insufficient_scope');
    expectError(await get(s, '/categories', key), 403, 'insufficient_scope');
  });

  it('authentication comes before validation: a bad key with bad parameters is 401', async () => {
    expectError(await get(s, '/companies?limit=0', 'bk_nope'), 401, 'unauthorized');
  });

  it('404 for an unknown route and an unknown company, in the same shape', async () => {
    expectError(await get(s, '/companiez', s.key), 404, 'not_found');
    expectError(await get(s, '/companies/c_zzzzzzz', s.key), 404, 'not_found');
    expectError(await get(s, '/companies/556677-8898', s.key), 404, 'not_found');
  });
});
