// Idempotency-Key on POST /exports (contract §2.6): replay, conflict, and a race on one key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { idempotent, requestHash } from '../../src/exports/idempotency.js';
import { issueKey } from '../../src/server/api-keys.js';
import type { ExportRepository } from '../../src/store/exports.js';
import { api, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  key = await t.keyFor('idem', ['exports:create', 'exports:read']);
}, 60_000);
afterAll(async () => t?.cleanup());

async function exportIds(k: string): Promise<string[]> {
  const r = await api(t, k, 'GET', '/exports?limit=100');
  return r.body.data.map((e: { id: string }) => e.id);
}

describe('Idempotency-Key', () => {
  it('replays the identical response for the same key and body, creating nothing', async () => {
    const body = { format: 'csv', filters: { county: '14', f_skatt: true } };
    const first = await api(t, key, 'POST', '/exports', body, { 'idempotency-key': 'k-same' });
    expect(first.status).toBe(202);
    const before = await exportIds(key);
    const again = await api(t, key, 'POST', '/exports', body, { 'idempotency-key': 'k-same' });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // Headers too: Request-Id is the body's meta.request_id, on the replay as on every answer.
    expect(first.headers.get('request-id')).toBe(first.body.meta.request_id);
    expect(again.headers.get('request-id')).toBe(first.body.meta.request_id);
    // Key order in the body does not make it another request.
    const reordered = await api(t, key, 'POST', '/exports', { filters: { f_skatt: true, county: '14' }, format: 'csv' }, { 'idempotency-key': 'k-same' });
    expect(reordered.body).toEqual(first.body);
    expect(await exportIds(key)).toEqual(before);
  });

  it('answers 409 for the same key with another body', async () => {
    await api(t, key, 'POST', '/exports', { format: 'csv' }, { 'idempotency-key': 'k-diff' });
    const r = await api(t, key, 'POST', '/exports', { format: 'jsonl' }, { 'idempotency-key': 'k-diff' });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
  });

  it('keeps keys per account', async () => {
    const otherKey = await t.keyFor('idem-2', ['exports:create', 'exports:read']);
    const a = await api(t, key, 'POST', '/exports', { format: 'csv' }, { 'idempotency-key': 'k-shared' });
    const b = await api(t, otherKey, 'POST', '/exports', { format: 'csv' }, { 'idempotency-key': 'k-shared' });
    expect(b.status).toBe(202);
    expect(b.body.data.id).not.toBe(a.body.data.id);
  });

  it('creates one export when many requests with one key arrive at the same moment', async () => {
    const racer = await t.keyFor('idem-race', ['exports:create', 'exports:read']);
    const body = { format: 'jsonl', filters: { county: '01' } };
    const replies = await Promise.all(Array.from({ length: 12 }, () => api(t, racer, 'POST', '/exports', body, { 'idempotency-key': 'k-race' })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.every((s) => s === 202 || s === 409)).toBe(true);
    const accepted = replies.filter((r) => r.status === 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((r) => r.body.data.id)).size).toBe(1);
    for (const r of replies.filter((r) => r.status === 409)) expect(r.body.error.code).toBe('idempotency_conflict');
    expect(await exportIds(racer)).toEqual([accepted[0].body.data.id]);
    // Once settled, the key replays.
    const later = await api(t, racer, 'POST', '/exports', body, { 'idempotency-key': 'k-race' });
    expect(later.status).toBe(202);
    expect(later.body).toEqual(accepted[0].body);
  });

  it('with different bodies racing on one key, one wins and the rest conflict', async () => {
    const racer = await t.keyFor('idem-race-2', ['exports:create', 'exports:read']);
    const replies = await Promise.all(
      ['01', '03', '04', '05'].map((county) => api(t, racer, 'POST', '/exports', { filters: { county } }, { 'idempotency-key': 'k-race-2' })),
    );
    expect(replies.filter((r) => r.status === 202)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(3);
    expect(await exportIds(racer)).toHaveLength(1);
  });

  it('rejects a malformed key and leaves invalid requests unrecorded', async () => {
    const long = await api(t, key, 'POST', '/exports', { format: 'csv' }, { 'idempotency-key': 'x'.repeat(256) });
    expect(long.status).toBe(400);
    const bad = await api(t, key, 'POST', '/exports', { format: 'xml' }, { 'idempotency-key': 'k-invalid' });
    expect(bad.status).toBe(400);
    const good = await api(t, key, 'POST', '/exports', { format: 'csv' }, { 'idempotency-key': 'k-invalid' });
    expect(good.status).toBe(202);
  });

  it('answers 409 while the first request with the key is still in flight, and frees the key when it fails', async () => {
    const repo = t.store().exports;
    const hash = requestHash('POST /exports', { format: 'csv' });
    let release: (() => void) | undefined;
    const slow = idempotent(repo, 'acct_inflight', 'k-slow', hash, () => new Promise((resolve) => (release = () => resolve({ status: 202, body: { data: { id: 'exp_x' } } }))));
    // The first request runs its work once its reservation is written: the second comes after
    // that (started at once, on PostgreSQL it could reserve the key first, and the test failed).
    while (!release) await new Promise((r) => setTimeout(r, 5));
    const second = await idempotent(repo, 'acct_inflight', 'k-slow', hash, async () => ({ status: 202, body: {} })).catch((e) => e);
    expect(second).toBeInstanceOf(ApiError);
    expect(second.code).toBe('idempotency_conflict');
    expect(second.headers['Retry-After']).toBe('1');
    release();
    expect((await slow).body).toEqual({ data: { id: 'exp_x' } });
    expect((await idempotent(repo, 'acct_inflight', 'k-slow', hash, async () => ({ status: 500, body: {} }))).replayed).toBe(true);

    const failing = idempotent(repo, 'acct_inflight', 'k-fail', hash, async () => {
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    const retried = await idempotent(repo, 'acct_inflight', 'k-fail', hash, async () => ({ status: 202, body: { ok: true } }));
    expect(retried).toEqual({ status: 202, body: { ok: true }, replayed: false });
  });

  it('keeps the response with the export it created, and a request whose reservation a retry took over creates nothing', async () => {
    const repo = t.store().exports;
    const hash = requestHash('POST /exports', { format: 'csv' });
    const exportRow = (id: string) => ({
      id, account_id: 'acct_kept', status: 'queued' as const, format: 'csv' as const, filters: {}, fields: null, estimated_rows: 1,
      row_count: null, files: [], created_at: new Date().toISOString(), completed_at: null, expires_at: null, error: null,
    });
    // One transaction: the export and the key's response are there together.
    const now = new Date();
    expect(await repo.reserveIdempotencyKey('acct_kept', 'k-kept', hash, now)).toBeNull();
    expect(await repo.create(exportRow('exp_kept'), { response: { key: 'k-kept', reservedAt: now.toISOString(), status: 202, body: { data: { id: 'exp_kept' } } } })).toBe('created');
    expect(await repo.getById('exp_kept')).not.toBeNull();
    expect(await repo.reserveIdempotencyKey('acct_kept', 'k-kept', hash, new Date())).toMatchObject({ status_code: 202, response: { data: { id: 'exp_kept' } } });

    // A request that stalled past a minute: its retry (here over HTTP) took the reservation over
    // and created the export. When the stalled one gets to write, its export is not stored.
    const body = { format: 'csv', filters: { county: '01' } };
    const { key: k, account } = await issueKey(t.store(), { account: 'acct-stalled', plan: 'free', scopes: ['exports:create', 'exports:read'] });
    const stalledAt = new Date(Date.now() - 120_000);
    expect(await repo.reserveIdempotencyKey(account.id, 'k-stalled', requestHash('POST /exports', body), stalledAt)).toBeNull();
    const retried = await api(t, k, 'POST', '/exports', body, { 'idempotency-key': 'k-stalled' });
    expect(retried.status).toBe(202);
    const stalled = { ...exportRow('exp_stalled'), account_id: account.id };
    expect(await repo.create(stalled, { response: { key: 'k-stalled', reservedAt: stalledAt.toISOString(), status: 202, body: { data: { id: 'exp_stalled' } } } })).toBe('taken_over');
    expect(await repo.getById('exp_stalled')).toBeNull();
    expect(await exportIds(k)).toEqual([retried.body.data.id]);
    const replay = await api(t, k, 'POST', '/exports', body, { 'idempotency-key': 'k-stalled' });
    expect(replay.body).toEqual(retried.body);
  });

  it('runs once when two retries take over an abandoned reservation at the same moment', async () => {
    // A reservation whose request died two minutes ago (past the 60 s after which it is given
    // up), and two retries in the worst order: both find it abandoned; A frees it and reserves
    // anew; then B frees. Until 2026-11-27 B's free removed A's fresh reservation too (any
    // unanswered one), and both ran.
    const repo = t.store().exports;
    const hash = requestHash('POST /exports', { format: 'csv' });
    expect(await repo.reserveIdempotencyKey('acct_abandoned', 'k-old', hash, new Date(Date.now() - 120_000))).toBeNull();
    const signal = () => {
      let open!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      return { open, opened };
    };
    const bFoundIt = signal();
    const aReserved = signal();
    const aMayFinish = signal();
    let runs = 0;
    // A frees the abandoned reservation only once B has found it too.
    const repoA: ExportRepository = Object.assign(Object.create(repo), {
      releaseIdempotencyKey: async (...args: Parameters<ExportRepository['releaseIdempotencyKey']>) => {
        await bFoundIt.opened;
        return repo.releaseIdempotencyKey(...args);
      },
    });
    // B found it abandoned (its first reservation try), and frees it only once A has reserved anew.
    let bTries = 0;
    const repoB: ExportRepository = Object.assign(Object.create(repo), {
      reserveIdempotencyKey: async (...args: Parameters<ExportRepository['reserveIdempotencyKey']>) => {
        const found = await repo.reserveIdempotencyKey(...args);
        if (++bTries === 1) bFoundIt.open();
        return found;
      },
      releaseIdempotencyKey: async (...args: Parameters<ExportRepository['releaseIdempotencyKey']>) => {
        await aReserved.opened;
        return repo.releaseIdempotencyKey(...args);
      },
    });
    const a = idempotent(repoA, 'acct_abandoned', 'k-old', hash, async () => {
      runs++;
      aReserved.open();
      await aMayFinish.opened;
      return { status: 202, body: { data: { id: 'exp_a' } } };
    });
    const b = idempotent(repoB, 'acct_abandoned', 'k-old', hash, async () => {
      runs++;
      return { status: 202, body: { data: { id: 'exp_b' } } };
    }).catch((e: unknown) => e);
    const refused = await b;
    aMayFinish.open();
    expect((await a).body).toEqual({ data: { id: 'exp_a' } });
    expect(runs).toBe(1);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('idempotency_conflict');
  });
});
