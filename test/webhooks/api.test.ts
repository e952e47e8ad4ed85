// The endpoints of contract §2.7: shapes, secret handling, scope, plan and account isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newKey, startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  s = await startTestServer({ allowInsecureWebhooks: true, workers: false, logger: false });
  keyA = s.apiKey;
  keyB = await newKey(s.store, 'other-account');
});
afterAll(async () => s.close());

const body = { url: 'https://hooks.example.com/bolag', events: ['company.updated', 'export.completed'], filters: { county: ['01'] } };

describe('webhook endpoints', () => {
  it('creates with 201 and shows the secret only at creation', async () => {
    const created = await call(s.url, keyA, 'POST', '/webhooks', body);
    expect(created.status).toBe(201);
    const w = created.body.data;
    expect(w).toMatchObject({ url: body.url, events: body.events, filters: body.filters, status: 'active', failing_since: null });
    expect(w.id).toMatch(/^whk_/);
    expect(w.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    expect(created.body.meta.request_id).toMatch(/^req_/);

    const got = await call(s.url, keyA, 'GET', `/webhooks/${w.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.secret).toBeUndefined();
    // Location names the webhook made, as POST /exports's does its export.
    const located = await fetch(`${s.url}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, url: 'https://hooks.example.com/located' }),
    });
    expect(located.status).toBe(201);
    const made = ((await located.json()) as { data: { id: string } }).data;
    expect(located.headers.get('location')).toBe(`${s.url}/webhooks/${made.id}`);
    expect((await call(s.url, keyA, 'DELETE', `/webhooks/${made.id}`)).status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain(w.secret);
    const list = await call(s.url, keyA, 'GET', '/webhooks');
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(w.id);
    expect(JSON.stringify(list.body)).not.toContain(w.secret);
  });

  it('takes an Idempotency-Key: a retried create replays the first answer, secret included, and makes no second webhook', async () => {
    const post = async (key: string, payload: unknown, apiKey = keyA) => {
      const res = await fetch(`${s.url}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(payload),
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as any };
    };
    const before = (await call(s.url, keyA, 'GET', '/webhooks')).body.data.length;
    const payload = { ...body, url: 'https://hooks.example.com/idempotent' };
    const first = await post('whk-retry-1', payload);
    expect(first.status).toBe(201);
    const again = await post('whk-retry-1', payload);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.body.data.secret).toBe(first.body.data.secret);
    expect(again.headers.get('request-id')).toBe(first.body.meta.request_id);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect((await call(s.url, keyA, 'GET', '/webhooks')).body.data.length).toBe(before + 1);
    // Another body with the key, and the key on the other POST: 409, nothing made.
    const other = await post('whk-retry-1', { ...payload, url: 'https://hooks.example.com/other' });
    expect([other.status, other.body.error.code]).toEqual([409, 'idempotency_conflict']);
    const exportWithIt = await fetch(`${s.url}/exports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json', 'idempotency-key': 'whk-retry-1' },
      body: JSON.stringify({ format: 'csv' }),
    });
    expect(exportWithIt.status).toBe(409);
    // Another account's key of the same name is its own.
    expect((await post('whk-retry-1', payload, keyB)).body.data?.id ?? 'refused').not.toBe(first.body.data.id);
    expect((await call(s.url, keyA, 'GET', '/webhooks')).body.data.length).toBe(before + 1);
  });

  it('keeps no secret with an Idempotency-Key: a replay gives the secret as it is now, and a 409 once the webhook is deleted (from a review, 2026-11-29)', async () => {
    const post = async (key: string) => {
      const res = await fetch(`${s.url}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ ...body, url: 'https://hooks.example.com/rotated' }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const first = await post('whk-rotated-1');
    const secret: string = first.body.data.secret;
    expect(secret).toMatch(/^whsec_/);
    // What the key keeps (the key exists: its entry is returned, nothing reserved).
    const accountId = (await s.store.webhooks.getById(first.body.data.id))!.account_id;
    const kept = await s.store.exports.reserveIdempotencyKey(accountId, 'whk-rotated-1', 'any', new Date());
    expect(kept?.response).toBeTruthy();
    expect(JSON.stringify(kept)).not.toContain('whsec_');
    // Rotated: the replay is the create's answer with the secret that signs now, not the old one.
    const rotated = (await call(s.url, keyA, 'POST', `/webhooks/${first.body.data.id}/rotate-secret`)).body.data.secret;
    const replay = await post('whk-rotated-1');
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual({ ...first.body, data: { ...first.body.data, secret: rotated } });
    // Deleted: no answer of a webhook that is not there.
    expect((await call(s.url, keyA, 'DELETE', `/webhooks/${first.body.data.id}`)).status).toBe(200);
    const gone = await post('whk-rotated-1');
    expect([gone.status, gone.body.error.code]).toEqual([409, 'idempotency_conflict']);
    expect(JSON.stringify(gone.body)).not.toContain('whsec_');
  });

  it('updates url, events and filters, and deletes', async () => {
    const w = (await call(s.url, keyA, 'POST', '/webhooks', body)).body.data;
    const patched = await call(s.url, keyA, 'PATCH', `/webhooks/${w.id}`, {
      url: 'https://hooks.example.com/v2',
      events: ['company.created'],
      filters: { status: ['aktiv'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ url: 'https://hooks.example.com/v2', events: ['company.created'], filters: { status: ['aktiv'] } });
    expect(patched.body.data.secret).toBeUndefined();
    expect((await call(s.url, keyA, 'GET', `/webhooks/${w.id}`)).body.data.url).toBe('https://hooks.example.com/v2');
    const del = await call(s.url, keyA, 'DELETE', `/webhooks/${w.id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ id: w.id, deleted: true });
    expect((await call(s.url, keyA, 'GET', `/webhooks/${w.id}`)).status).toBe(404);
  });

  it("says what is wrong in plain words, not the validator's (found by an exploratory run, 2026-11-28)", async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', '/webhooks', { url: body.url }, 'Invalid events: it is required.'],
      ['POST', '/webhooks', { url: body.url, events: 'company.updated' }, 'Invalid events: must be an array.'],
      ['POST', '/webhooks', { url: 42, events: ['company.updated'] }, 'Invalid url: must be a string.'],
      ['POST', '/webhooks', { url: body.url, events: [] }, 'Invalid events: must not be empty.'],
    ];
    for (const [method, path, b, message] of cases) {
      const r = await call(s.url, keyA, method, path, b);
      expect([r.status, r.body.error.message], JSON.stringify(b)).toEqual([400, message]);
    }
    const w = (await call(s.url, keyA, 'POST', '/webhooks', body)).body.data;
    const empty = await call(s.url, keyA, 'GET', `/webhooks/${w.id}/deliveries?cursor=`);
    expect([empty.status, empty.body.error.message]).toEqual([400, 'Invalid cursor: must not be empty.']);
  });

  it('an empty body is not {}: 415 where a body is needed, accepted where none is (contract §2.1)', async () => {
    const w = (await call(s.url, keyA, 'POST', '/webhooks', body)).body.data;
    const send = async (method: string, path: string, headers: Record<string, string>) => {
      // Without a body, fetch sends no Content-Type (with '' it would say text/plain).
      const res = await fetch(`${s.url}${path}`, { method, headers: { authorization: `Bearer ${keyA}`, ...headers }, body: headers['content-type'] ? '' : undefined });
      return { status: res.status, body: await res.json() };
    };
    for (const headers of [{ 'content-type': 'application/json' }, {} as Record<string, string>]) {
      for (const [method, path] of [['POST', '/webhooks'], ['PATCH', `/webhooks/${w.id}`], ['POST', '/exports']]) {
        const r = await send(method, path, headers);
        expect([r.status, r.body.error.code], `${method} ${path} ${JSON.stringify(headers)}`).toEqual([415, 'unsupported_media_type']);
        expect(r.body.error.message).toContain('no body');
      }
      // No body to take: Content-Type: application/json with nothing after it is fine.
      expect((await send('POST', `/webhooks/${w.id}/test`, headers)).status, JSON.stringify(headers)).toBe(202);
      expect((await send('POST', `/webhooks/${w.id}/rotate-secret`, headers)).status, JSON.stringify(headers)).toBe(200);
    }
    const braces = await call(s.url, keyA, 'POST', '/webhooks', {});
    expect([braces.status, braces.body.error.code]).toEqual([400, 'invalid_body']);
  });

  it('rotates the secret: a new one, shown once, with the overlap end', async () => {
    const w = (await call(s.url, keyA, 'POST', '/webhooks', body)).body.data;
    const rotated = await call(s.url, keyA, 'POST', `/webhooks/${w.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(w.secret);
    const overlapHours = (Date.parse(rotated.body.data.previous_secret_expires_at) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);
    const got = await call(s.url, keyA, 'GET', `/webhooks/${w.id}`);
    expect(JSON.stringify(got.body)).not.toContain(rotated.body.data.secret);
    expect(JSON.stringify(got.body)).not.toContain(w.secret);
  });

  it('rotates twice at once: each new secret signs, the later as the secret, the earlier as the previous one', async () => {
    // On PostgreSQL the two requests interleave (read, read, write, write), which lost the first
    // secret until rotation was one UPDATE; SQLite in one process answers them in turn.
    for (let round = 0; round < 5; round++) {
      const w = (await call(s.url, keyA, 'POST', '/webhooks', body)).body.data;
      const [a, b] = await Promise.all([1, 2].map(() => call(s.url, keyA, 'POST', `/webhooks/${w.id}/rotate-secret`)));
      expect([a.status, b.status]).toEqual([200, 200]);
      const stored = (await s.store.webhooks.getById(w.id))!;
      // Whichever came second replaced the first's, which stays valid through the overlap:
      // neither caller was handed a secret that never signs.
      expect([stored.secret, stored.previous_secret].sort()).toEqual([a.body.data.secret, b.body.data.secret].sort());
      await call(s.url, keyA, 'DELETE', `/webhooks/${w.id}`);
    }
  });

  it('queues a test delivery with 202', async () => {
    const w = (await call(s.url, keyA, 'POST', '/webhooks', body)).body.data;
    const t = await call(s.url, keyA, 'POST', `/webhooks/${w.id}/test`);
    expect(t.status).toBe(202);
    expect(t.body.data).toMatchObject({ webhook_id: w.id, type: 'webhook.test' });
    expect(t.body.data.event_id).toMatch(/^evt_/);
  });

  it('validates the body', async () => {
    const bad = [
      { ...body, events: [] },
      { ...body, events: ['company.deleted'] },
      { ...body, filters: { county: ['Atlantis'] } },
      { ...body, filters: { revenue_min: ['1'] } },
      { ...body, filters: { county: '01' } },
      { ...body, extra: true },
      { events: body.events },
      { ...body, url: 'not a url' },
    ];
    for (const b of bad) {
      const r = await call(s.url, keyA, 'POST', '/webhooks', b);
      expect(r.status, JSON.stringify(b)).toBe(400);
      expect(r.body.error.code).toBe('invalid_body');
    }
    // An unknown key names where it is, as an export's filters do.
    const unknown = await call(s.url, keyA, 'POST', '/webhooks', { ...body, filters: { revenue_min: ['1'] } });
    expect([unknown.body.error.param, unknown.body.error.message]).toEqual(['filters.revenue_min', 'Unknown parameter "filters.revenue_min".']);
    expect((await call(s.url, keyA, 'POST', '/webhooks', { ...body, extra: true })).body.error.param).toBe('extra');
    const w = (await call(s.url, keyA, 'POST', '/webhooks', body)).body.data;
    expect((await call(s.url, keyA, 'PATCH', `/webhooks/${w.id}`, { secret: 'whsec_mine' })).status).toBe(400);
    expect((await call(s.url, keyA, 'PATCH', `/webhooks/${w.id}`, { status: 'disabled' })).status).toBe(400);
    expect((await call(s.url, keyA, 'GET', `/webhooks/${w.id}/deliveries?limit=0`)).status).toBe(400);
    expect((await call(s.url, keyA, 'GET', `/webhooks/${w.id}/deliveries?cursor=abc.def`)).status).toBe(400);
  });

  it('needs the scope, the plan and a key', async () => {
    const noScope = await newKey(s.store, 'reader', 'pro', ['companies:read']);
    const free = await newKey(s.store, 'free-account', 'free', ['webhooks:manage']);
    const a = await call(s.url, noScope, 'POST', '/webhooks', body);
    expect([a.status, a.body.error.code]).toEqual([403, 'insufficient_scope']);
    const b = await call(s.url, free, 'POST', '/webhooks', body);
    expect([b.status, b.body.error.code]).toEqual([403, 'plan_required']);
    expect((await call(s.url, free, 'GET', '/webhooks')).status).toBe(403);
    expect((await call(s.url, 'bk_nope', 'GET', '/webhooks')).status).toBe(401);
  });

  it('subscribes to export events only with a key that may read the exports (their deliveries carry download links)', async () => {
    // Found by a security review (2026-11-27): a webhooks:manage key alone got every link.
    const manager = await newKey(s.store, 'manager-account', 'pro', ['webhooks:manage']);
    const exportsToo = await call(s.url, manager, 'POST', '/webhooks', body);
    expect([exportsToo.status, exportsToo.body.error.code]).toEqual([403, 'insufficient_scope']);
    expect(exportsToo.body.error.message).toContain('exports:read');
    const companies = await call(s.url, manager, 'POST', '/webhooks', { ...body, events: ['company.updated'] });
    expect(companies.status).toBe(201);
    const widened = await call(s.url, manager, 'PATCH', `/webhooks/${companies.body.data.id}`, { events: ['company.updated', 'export.failed'] });
    expect([widened.status, widened.body.error.code]).toEqual([403, 'insufficient_scope']);
    expect((await call(s.url, manager, 'GET', `/webhooks/${companies.body.data.id}`)).body.data.events).toEqual(['company.updated']);
    const reader = await newKey(s.store, 'manager-account', 'pro', ['webhooks:manage', 'exports:read']);
    const exportHook = (await call(s.url, reader, 'POST', '/webhooks', body)).body.data;
    expect(exportHook.id).toMatch(/^whk_/);
    // Found by an exploratory run (2026-11-28): the manager could not subscribe, but could point
    // an existing export webhook at itself and sign it with a secret of its own.
    const redirected = await call(s.url, manager, 'PATCH', `/webhooks/${exportHook.id}`, { url: 'https://attacker.example.com/' });
    expect([redirected.status, redirected.body.error.code]).toEqual([403, 'insufficient_scope']);
    const rekeyed = await call(s.url, manager, 'POST', `/webhooks/${exportHook.id}/rotate-secret`);
    expect([rekeyed.status, rekeyed.body.error.code]).toEqual([403, 'insufficient_scope']);
    const kept = (await call(s.url, reader, 'GET', `/webhooks/${exportHook.id}`)).body.data;
    // Not rotated: no previous secret in its overlap.
    expect([kept.url, kept.previous_secret_expires_at]).toEqual([body.url, null]);
    // Nor in two steps: its events narrowed first (its queued export deliveries would follow a move).
    const narrowed = await call(s.url, manager, 'PATCH', `/webhooks/${exportHook.id}`, { events: ['company.updated'] });
    expect([narrowed.status, narrowed.body.error.code]).toEqual([403, 'insufficient_scope']);
    const both = await call(s.url, manager, 'PATCH', `/webhooks/${exportHook.id}`, { url: 'https://attacker.example.com/', events: ['company.updated'] });
    expect([both.status, both.body.error.code]).toEqual([403, 'insufficient_scope']);
    // Its filters and its status are the manager's to change.
    expect((await call(s.url, manager, 'PATCH', `/webhooks/${exportHook.id}`, { filters: { county: ['01'] } })).status).toBe(200);
    // Its company webhook is the manager's to move and re-key.
    expect((await call(s.url, manager, 'PATCH', `/webhooks/${companies.body.data.id}`, { url: 'https://elsewhere.example.com/' })).status).toBe(200);
    expect((await call(s.url, manager, 'POST', `/webhooks/${companies.body.data.id}/rotate-secret`)).status).toBe(200);
    expect((await call(s.url, reader, 'PATCH', `/webhooks/${exportHook.id}`, { url: 'https://elsewhere.example.com/' })).status).toBe(200);
  });

  it('lists in pages, as every list response (spec §2.2): all of them by default, limit and cursor as asked', async () => {
    const key = await newKey(s.store, 'paged-account');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await call(s.url, key, 'POST', '/webhooks', { url: `https://hooks.example.com/paged/${i}`, events: ['company.updated'] })).body.data.id);
    const all = await call(s.url, key, 'GET', '/webhooks');
    expect(all.body.pagination).toEqual({ limit: 100, has_more: false });
    // Creation order: created_at, then id (ties within a millisecond); pages follow that order.
    const listed = all.body.data.map((w: { id: string }) => w.id) as string[];
    expect([...listed].sort()).toEqual([...made].sort());
    const order = all.body.data.map((w: { created_at: string; id: string }) => `${w.created_at} ${w.id}`) as string[];
    expect(order).toEqual([...order].sort());
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(s.url, key, 'GET', `/webhooks?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((w: { id: string }) => w.id));
      cursor = page.body.pagination.next_cursor;
      expect(page.body.pagination.has_more).toBe(cursor !== undefined);
    } while (cursor !== undefined);
    expect(seen).toEqual(listed);
    // Another account's cursor, or one altered, is refused.
    const first = (await call(s.url, key, 'GET', '/webhooks?limit=1')).body.pagination.next_cursor as string;
    expect((await call(s.url, keyB, 'GET', `/webhooks?cursor=${encodeURIComponent(first)}`)).body.error).toMatchObject({ code: 'invalid_parameter', param: 'cursor' });
    expect((await call(s.url, key, 'GET', '/webhooks?limit=0')).body.error).toMatchObject({ code: 'invalid_parameter', param: 'limit' });
  });

  it("never shows another account's webhook", async () => {
    const w = (await call(s.url, keyA, 'POST', '/webhooks', body)).body.data;
    const list = await call(s.url, keyB, 'GET', '/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(w.id);
    for (const [method, path, b] of [
      ['GET', `/webhooks/${w.id}`],
      ['PATCH', `/webhooks/${w.id}`, { url: 'https://evil.example.com/' }],
      ['DELETE', `/webhooks/${w.id}`],
      ['POST', `/webhooks/${w.id}/rotate-secret`],
      ['POST', `/webhooks/${w.id}/test`],
      ['GET', `/webhooks/${w.id}/deliveries`],
    ] as const) {
      const r = await call(s.url, keyB, method, path, b);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    const still = await call(s.url, keyA, 'GET', `/webhooks/${w.id}`);
    expect(still.body.data.url).toBe(body.url);
  });

  it('refuses a 101st webhook of one account (403 plan_required) and takes one again once another is deleted', async () => {
    const key = await newKey(s.store, 'busy-account');
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const r = await call(s.url, key, 'POST', '/webhooks', { url: `https://hooks.example.com/${i}`, events: ['company.updated'] });
      expect(r.status).toBe(201);
      ids.push(r.body.data.id);
    }
    const over = await call(s.url, key, 'POST', '/webhooks', { url: 'https://hooks.example.com/over', events: ['company.updated'] });
    expect(over.status).toBe(403);
    expect(over.body.error).toMatchObject({ code: 'plan_required', message: expect.stringMatching(/at most 100 webhooks/) });
    // The cap is the account's: another account still creates.
    expect((await call(s.url, keyB, 'POST', '/webhooks', { url: 'https://hooks.example.com/b', events: ['company.updated'] })).status).toBe(201);
    expect((await call(s.url, key, 'DELETE', `/webhooks/${ids[0]}`)).status).toBe(200);
    expect((await call(s.url, key, 'POST', '/webhooks', { url: 'https://hooks.example.com/again', events: ['company.updated'] })).status).toBe(201);
  });

  it('describes the endpoints in the OpenAPI document', async () => {
    const doc = await call(s.url, keyA, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    const paths = doc.body.paths ?? doc.body.data?.paths;
    for (const p of ['/webhooks', '/webhooks/{id}', '/webhooks/{id}/rotate-secret', '/webhooks/{id}/test', '/webhooks/{id}/deliveries']) {
      expect(paths[p], p).toBeDefined();
    }
    expect(paths['/webhooks'].post.operationId).toBe('createWebhook');
  });
});
