// POST /exports, GET /exports/{id}, GET /exports over real HTTP: validation, scopes, accounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, http, startTestServer, waitForExport, type TestServer } from './helpers.js';

let t: TestServer;
let other: string;

beforeAll(async () => {
  t = await startTestServer();
  other = await t.keyFor('other-account', ['exports:create', 'exports:read', 'companies:read']);
}, 60_000);
afterAll(async () => t?.cleanup());

describe('POST /exports', () => {
  it('queues an export and answers 202 with the record', async () => {
    const r = await api(t, t.key, 'POST', '/exports', { format: 'CSV', filters: { county: '14' } });
    expect(r.status).toBe(202);
    expect(r.body.meta.request_id).toBe(r.headers.get('request-id'));
    const e = r.body.data;
    expect(e).toMatchObject({ status: 'queued', format: 'csv', row_count: null, files: [], download_url: null, error: null });
    expect(e.id).toMatch(/^exp_/);
    expect(e.filters).toEqual({ county: '14', exclude_advertising_blocked: true });
    expect(r.headers.get('location')).toBe(`${t.url}/exports/${e.id}`);
    // estimated_rows is the count of the same search, advertising block excluded.
    const search = await api(t, t.key, 'GET', '/companies?county=14&exclude_advertising_blocked=true&include_total=true&limit=1');
    expect(e.estimated_rows).toBe(search.body.pagination.total);
    const done = await waitForExport(t, t.key, e.id);
    expect(done.status).toBe('completed');
    expect(done.row_count).toBe(e.estimated_rows);
    expect(Date.parse(done.expires_at) - Date.parse(done.completed_at)).toBe(24 * 3600 * 1000);
  });

  it('defaults to csv and keeps the advertising block only when told false', async () => {
    const r = await api(t, t.key, 'POST', '/exports', { filters: { exclude_advertising_blocked: false } });
    expect(r.status).toBe(202);
    expect(r.body.data.format).toBe('csv');
    expect(r.body.data.filters).toEqual({ exclude_advertising_blocked: false });
    const all = await api(t, t.key, 'GET', '/companies?include_total=true&limit=1');
    expect(r.body.data.estimated_rows).toBe(all.body.pagination.total);
  });

  it.each([
    [{ format: 'xml' }, 'invalid_body', 'format'],
    [{ filters: { revenue_min: 10, revenue_max: 5 } }, 'invalid_body', 'filters.revenue_min'],
    [{ filters: { radius_km: 5 } }, 'invalid_body', 'filters.radius_km'],
    [{ filters: { county: 'Atlantis' } }, 'invalid_body', 'filters.county'],
    [{ filters: { colour: 'red' } }, 'invalid_body', 'filters.colour'],
    [{ filters: { limit: 5 } }, 'invalid_body', 'filters.limit'],
    [{ fields: ['name', 'shoe_size'] }, 'invalid_body', 'fields.1'],
    [{ format: 'csv', extra: 1 }, 'invalid_body', 'extra'],
  ])('rejects %j with 400', async (body, code, param) => {
    const r = await api(t, t.key, 'POST', '/exports', body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code, param });
    expect(r.body.meta.request_id).toBeTruthy();
  });

  it('rejects a body that is not a JSON object', async () => {
    const res = await http(`${t.url}/exports`, { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' }, body: '[]' });
    expect(res.status).toBe(400);
    // An empty body is not {} (contract §2.1): not JSON, 415.
    const empty = await http(`${t.url}/exports`, { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' } });
    expect([empty.status, ((await empty.json()) as { error: { code: string } }).error.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('reads JSON as UTF-8 only: a body declared in another charset is 415, utf-8 in any spelling is read', async () => {
    const body = JSON.stringify({ format: 'csv', filters: { city: 'Malmö' } });
    const post = (contentType: string) => http(`${t.url}/exports`, { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': contentType }, body });
    for (const declared of ['application/json; charset=latin1', 'application/json;charset=ISO-8859-1', 'application/json; charset="windows-1252"']) {
      const res = await post(declared);
      const answer = (await res.json()) as { error: { code: string; message: string } };
      expect([res.status, answer.error.code]).toEqual([415, 'unsupported_media_type']);
      expect(answer.error.message).toMatch(/read as UTF-8 only/);
    }
    for (const declared of ['application/json; charset=UTF-8', 'application/json; charset="utf-8"', 'application/json;charset=utf8']) {
      expect((await post(declared)).status).toBe(202);
    }
  });

  it('refuses a compressed body with 415, and plain JSON sent as compressed too', async () => {
    const { gzipSync } = await import('node:zlib');
    const json = JSON.stringify({ format: 'csv', filters: { county: '14' } });
    for (const [encoding, body] of [['gzip', gzipSync(json)], ['br', json]] as const) {
      const res = await http(`${t.url}/exports`, { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', 'content-encoding': encoding }, body });
      const answer = (await res.json()) as { error: { code: string; message: string } };
      expect([res.status, answer.error.code], encoding).toEqual([415, 'unsupported_media_type']);
      expect(answer.error.message).toContain(`Content-Encoding: ${encoding}; send it uncompressed`);
    }
    const identity = await http(`${t.url}/exports`, { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', 'content-encoding': 'identity' }, body: json });
    expect(identity.status).toBe(202);
  });

  it('checks the key and its scope before the body: no key, or a key without exports:create, is 401/403 whatever the body', async () => {
    const readOnly = await t.keyFor('reader-body', ['exports:read']);
    const bodies: [string, string | Buffer][] = [
      ['text/plain', 'x'],
      ['application/json', '{bad'],
      ['application/json', Buffer.alloc(1_100_000, 0x20)],
    ];
    for (const [contentType, body] of bodies) {
      for (const [key, status, code] of [[null, 401, 'unauthorized'], ['bk_not-a-key', 401, 'unauthorized'], [readOnly, 403, 'insufficient_scope']] as const) {
        const res = await http(`${t.url}/exports`, { method: 'POST', headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': contentType }, body });
        const answer = (await res.json()) as { error: { code: string } };
        expect([res.status, answer.error.code], `${contentType} ${String(body).slice(0, 10)} ${key}`).toEqual([status, code]);
      }
    }
  });

  it('needs exports:create', async () => {
    const readOnly = await t.keyFor('reader', ['exports:read']);
    const r = await api(t, readOnly, 'POST', '/exports', { format: 'csv' });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('insufficient_scope');
    expect((await api(t, null, 'POST', '/exports', { format: 'csv' })).status).toBe(401);
  });
});

describe('GET /exports and /exports/{id}', () => {
  it('shows an account only its own exports', async () => {
    const mine = (await api(t, t.key, 'POST', '/exports', { format: 'jsonl', filters: { county: '01' } })).body.data;
    const theirs = (await api(t, other, 'POST', '/exports', { format: 'jsonl', filters: { county: '01' } })).body.data;
    expect((await api(t, t.key, 'GET', `/exports/${mine.id}`)).status).toBe(200);
    const hidden = await api(t, t.key, 'GET', `/exports/${theirs.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('not_found');
    // The same answer as for an id that never existed.
    const missing = await api(t, t.key, 'GET', '/exports/exp_doesnotexist');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message.replace(/"[^"]*"/, '')).toBe(hidden.body.error.message.replace(/"[^"]*"/, ''));
    const listed = await api(t, other, 'GET', '/exports');
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([theirs.id]);
  });

  it('pages the list with a signed cursor', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) ids.add((await api(t, other, 'POST', '/exports', { format: 'csv', filters: { county: '03' } })).body.data.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await api(t, other, 'GET', `/exports?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.pagination.limit).toBe(2);
      seen.push(...r.body.data.map((e: { id: string }) => e.id));
      cursor = r.body.pagination.next_cursor;
    } while (cursor);
    expect(seen.length).toBe(4);
    for (const id of ids) expect(seen).toContain(id);
    const forged = await api(t, t.key, 'GET', `/exports?cursor=${Buffer.from('exp_a').toString('base64url')}.abc`);
    expect(forged.status).toBe(400);
    expect((await api(t, other, 'GET', '/exports?limit=0')).status).toBe(400);
  });

  it('needs exports:read', async () => {
    const createOnly = await t.keyFor('creator', ['exports:create']);
    const id = (await api(t, createOnly, 'POST', '/exports', {})).body.data.id;
    expect((await api(t, createOnly, 'GET', `/exports/${id}`)).status).toBe(403);
    expect((await api(t, null, 'GET', `/exports/${id}`)).status).toBe(401);
  });
});
