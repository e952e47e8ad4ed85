// The behaviour every Store implementation must have, written once and run for each
// (store.sqlite.test.ts, store.pg.test.ts). Claims, leases, files and rate windows: work-contract.ts.
import { describe, expect, it } from 'vitest';
import { withCheckDigit } from '../../src/core/orgnr.js';
import { seedRegister } from '../../src/app/seed-register.js';
import type { Store } from '../../src/store/store.js';
import type { StoredExport } from '../../src/store/exports.js';
import type { StoredWebhook } from '../../src/store/webhooks.js';
import { refreshHealth } from '../../src/webhooks/health.js';
import { normalizeFilters, SEARCH_QUERY_SCHEMA, toSearchQuery } from '../../src/core/search-params.js';
import { planRecord } from '../../src/import/plan-record.js';

export function storeContract(name: string, open: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    const withStore = (fn: (s: Store) => Promise<void>) => async () => {
      const store = await open();
      try {
        await fn(store);
      } finally {
        await store.close();
      }
    };

    it('accounts and keys: stored by hash, found by hash, revoked', withStore(async (s) => {
      const account = await s.accounts.createAccount('acme', 'pro');
      expect(await s.accounts.findAccountByName('acme')).toEqual(account);
      const key = await s.accounts.createKey(account.id, 'a'.repeat(64), 'bk_abcdefgh', ['companies:read']);
      const found = await s.accounts.findKeyByHash('a'.repeat(64));
      expect(found?.account.id).toBe(account.id);
      expect(found?.scopes).toEqual(['companies:read']);
      expect(await s.accounts.findKeyByHash('b'.repeat(64))).toBeNull();
      expect(await s.accounts.revokeKey(key.prefix)).toBe(true);
      expect(await s.accounts.revokeKey(key.prefix)).toBe(false);
      expect((await s.accounts.findKeyByHash('a'.repeat(64)))?.revoked_at).not.toBeNull();
    }));

    it('jobs: due order, leases that lapse, retries, dedupe keys', withStore(async (s) => {
      const a = await s.jobs.enqueue('k', { n: 1 });
      await s.jobs.enqueue('k', { n: 2 }, { runAt: new Date(Date.now() + 60_000) });
      const again = await s.jobs.enqueue('k', { n: 3 }, { key: 'once' });
      expect(await s.jobs.enqueue('k', { n: 4 }, { key: 'once' })).toBe(again);
      const first = await s.jobs.claim(['k'], 50);
      expect(first?.id).toBe(a);
      const second = await s.jobs.claim(['k'], 50);
      expect(second?.payload).toEqual({ n: 3 });
      expect(await s.jobs.claim(['k'], 50)).toBeNull(); // the third is not due yet
      await new Promise((r) => setTimeout(r, 80));
      // Their workers died: both leases lapsed, so both jobs are due again.
      const lapsed = [await s.jobs.claim(['k'], 10_000), await s.jobs.claim(['k'], 10_000)];
      expect(lapsed.map((j) => j?.id).sort()).toEqual([a, again].sort());
      const jobA = lapsed.find((j) => j?.id === a)!;
      const jobAgain = lapsed.find((j) => j?.id === again)!;
      expect(await s.jobs.complete(jobA)).toBe(true);
      expect(await s.jobs.retry(jobAgain, new Date(Date.now() - 1), 'boom')).toBe(true);
      const retried = await s.jobs.claim(['k'], 10_000);
      expect(retried).toMatchObject({ id: again, attempts: 1 });
      expect(await s.jobs.complete(retried!)).toBe(true);
      expect(await s.jobs.claim(['k'], 10)).toBeNull();
      expect(await s.jobs.claim(['other'], 10)).toBeNull();
    }));

    it('jobs: claimMany passes over skipped webhooks; release hands a claim back without an attempt', withStore(async (s) => {
      await s.jobs.enqueueMany([
        { kind: 'd', payload: { n: 1, webhook_id: 'whk_a' }, key: 'whk_a:1', runAt: new Date(Date.now() - 3000) },
        { kind: 'd', payload: { n: 2, webhook_id: 'whk_a' }, key: 'whk_a:2', runAt: new Date(Date.now() - 2000) },
        { kind: 'd', payload: { n: 3, webhook_id: 'whk_ab' }, key: 'whk_ab:1', runAt: new Date(Date.now() - 1500) },
        { kind: 'd', payload: { n: 4, webhook_id: 'whk_b' }, key: 'whk_b:1', runAt: new Date(Date.now() - 1000) },
        { kind: 'd', payload: { n: 5 }, runAt: new Date(Date.now() - 500) },
      ]);
      const claimed = await s.jobs.claimMany(['d'], 60_000, 10, { skip: [{ field: 'webhook_id', values: ['whk_a', 'whk_b'] }] });
      expect(claimed.map((j) => j.payload.n)).toEqual([3, 5]);
      for (const j of claimed) expect(await s.jobs.release(j)).toBe(true);
      // A release is a settlement: only under the current lease.
      expect(await s.jobs.release(claimed[0])).toBe(false);
      const all = await s.jobs.claimMany(['d'], 60_000, 10);
      expect(all.map((j) => [j.payload.n, j.attempts])).toEqual([[1, 0], [2, 0], [3, 0], [4, 0], [5, 0]]);
      expect(await s.jobs.claimMany(['d'], 60_000, 10)).toEqual([]);
    }));

    it('settings: created once, read, set, removed', withStore(async (s) => {
      expect(await s.getSetting('contract.x')).toBeNull();
      expect(await s.getOrCreateSetting('contract.x', () => 'a')).toBe('a');
      expect(await s.getOrCreateSetting('contract.x', () => 'b')).toBe('a');
      await s.setSetting('contract.x', 'c');
      expect(await s.getSetting('contract.x')).toBe('c');
      await s.setSetting('contract.x', null);
      expect(await s.getSetting('contract.x')).toBeNull();
      // Compare and set: only from the value expected, whoever else writes meanwhile.
      expect(await s.swapSetting('contract.x', 'z', 'a')).toBe(false);
      expect(await s.swapSetting('contract.x', null, 'a')).toBe(true);
      expect(await s.swapSetting('contract.x', null, 'b')).toBe(false);
      expect(await s.swapSetting('contract.x', 'a', 'b')).toBe(true);
      expect(await s.swapSetting('contract.x', 'a', 'c')).toBe(false);
      expect(await s.getSetting('contract.x')).toBe('b');
      expect(await s.swapSetting('contract.x', 'a', null)).toBe(false);
      expect(await s.swapSetting('contract.x', null, null)).toBe(false);
      expect(await s.swapSetting('contract.x', 'b', null)).toBe(true);
      expect(await s.swapSetting('contract.x', null, null)).toBe(true);
      expect(await s.getSetting('contract.x')).toBeNull();
      await s.setSetting('contract.x', null);
    }));

    it('outbox: append in order, read after a position, durable cursors', withStore(async (s) => {
      for (let i = 0; i < 3; i++) {
        await s.outbox.append({ id: `evt_${i}`, type: 'company.updated', created_at: new Date().toISOString(), data: { i } }, null, { county: '01' });
      }
      const all = await s.outbox.readAfter(0, 10);
      expect(all.map((e) => e.event.id)).toEqual(['evt_0', 'evt_1', 'evt_2']);
      expect(all[0].subject).toEqual({ county: '01' });
      expect((await s.outbox.readAfter(all[0].seq, 10)).map((e) => e.event.id)).toEqual(['evt_1', 'evt_2']);
      expect(await s.outbox.getCursor('webhooks')).toBe(0);
      expect(await s.outbox.advanceCursor('webhooks', 0, all[1].seq)).toBe(true);
      expect(await s.outbox.getCursor('webhooks')).toBe(all[1].seq);
      // Compare and set: a process that read the cursor before it moved cannot move it back.
      expect(await s.outbox.advanceCursor('webhooks', 0, all[0].seq)).toBe(false);
      expect(await s.outbox.advanceCursor('webhooks', all[1].seq, all[2].seq)).toBe(true);
      expect(await s.outbox.getCursor('webhooks')).toBe(all[2].seq);
    }));

    it('stats: what the workers have yet to do (jobs waiting, events not yet fanned out)', withStore(async (s) => {
      const before = await s.companies.stats();
      expect(before).toMatchObject({ jobs_waiting: 0, events_to_fan_out: 0 });
      const done = await s.jobs.enqueue('k', { n: 1 });
      await s.jobs.enqueue('k', { n: 2 });
      for (let i = 0; i < 3; i++) await s.outbox.append({ id: `evt_s${i}`, type: 'company.updated', created_at: new Date().toISOString(), data: {} }, null, null);
      expect(await s.companies.stats()).toMatchObject({ jobs_waiting: 2, events_to_fan_out: 3 });
      const [first] = await s.outbox.readAfter(0, 1);
      expect(await s.outbox.advanceCursor('webhooks', 0, first.seq)).toBe(true);
      const claimed = await s.jobs.claim(['k'], 60_000);
      expect(claimed?.id).toBe(done);
      expect(await s.jobs.complete(claimed!)).toBe(true);
      expect(await s.companies.stats()).toMatchObject({ jobs_waiting: 1, events_to_fan_out: 2 });
    }));

    it('exports: per account, updates, idempotency reservations', withStore(async (s) => {
      const e: StoredExport = {
        id: 'exp_1', account_id: 'acct_a', status: 'queued', format: 'csv', filters: { county: ['01'] }, fields: null,
        estimated_rows: 10, row_count: null, files: [], created_at: new Date().toISOString(), completed_at: null, expires_at: null, error: null,
      };
      await s.exports.create(e);
      expect(await s.exports.get('acct_a', 'exp_1')).toEqual(e);
      expect(await s.exports.get('acct_b', 'exp_1')).toBeNull();
      await s.exports.update('exp_1', { status: 'completed', row_count: 10, files: [{ name: 'part-1.csv', rows: 10, bytes: 99, sha256: 'x' }] });
      expect((await s.exports.getById('exp_1'))?.files[0].rows).toBe(10);
      expect((await s.exports.list('acct_a', 10)).map((x) => x.id)).toEqual(['exp_1']);
      for (const [id, at] of [['exp_0', '2026-01-02T00:00:00.000Z'], ['exp_2', '2026-01-01T00:00:00.000Z'], ['exp_3', '2026-01-02T00:00:00.000Z']]) {
        await s.exports.create({ ...e, id, created_at: at });
      }
      const newestFirst = ['exp_1', 'exp_3', 'exp_0', 'exp_2'];
      expect((await s.exports.list('acct_a', 10)).map((x) => x.id)).toEqual(newestFirst);
      expect((await s.exports.list('acct_a', 2, 'exp_3')).map((x) => x.id)).toEqual(['exp_0', 'exp_2']);
      expect(await s.exports.list('acct_b', 10)).toEqual([]);
      const now = new Date();
      expect(await s.exports.reserveIdempotencyKey('acct_a', 'k1', 'h1', now)).toBeNull();
      const inFlight = await s.exports.reserveIdempotencyKey('acct_a', 'k1', 'h1', now);
      expect(inFlight).toMatchObject({ request_hash: 'h1', response: null });
      expect(await s.exports.reserveIdempotencyKey('acct_b', 'k1', 'h1', now)).toBeNull(); // keys are per account
      await s.exports.completeIdempotencyKey('acct_a', 'k1', 202, { data: { id: 'exp_1' } });
      expect(await s.exports.reserveIdempotencyKey('acct_a', 'k1', 'h2', now)).toMatchObject({ request_hash: 'h1', status_code: 202, response: { data: { id: 'exp_1' } } });
      const later = new Date(now.getTime() + 25 * 3600 * 1000);
      expect(await s.exports.reserveIdempotencyKey('acct_a', 'k1', 'h2', later)).toBeNull(); // past 24 h the key is free again
    }));

    it('exports: an account gets no more unfinished ones than its cap, also when its creates race', withStore(async (s) => {
      const exp = (id: string, account: string, status: StoredExport['status'] = 'queued'): StoredExport => ({
        id, account_id: account, status, format: 'csv', filters: {}, fields: null,
        estimated_rows: 1, row_count: null, files: [], created_at: new Date().toISOString(), completed_at: null, expires_at: null, error: null,
      });
      // Finished ones do not count.
      await s.exports.create(exp('exp_cap_done', 'acct_cap', 'completed'));
      await s.exports.create(exp('exp_cap_failed', 'acct_cap', 'failed'));
      const made = await Promise.all(Array.from({ length: 12 }, (_, i) => s.exports.create(exp(`exp_cap_${i}`, 'acct_cap'), { maxUnfinished: 3 })));
      expect(made.filter((o) => o === 'created')).toHaveLength(3);
      expect(made.filter((o) => o === 'at_limit')).toHaveLength(9);
      expect(await s.exports.list('acct_cap', 100)).toHaveLength(5);
      expect(await s.exports.countUnfinished('acct_cap')).toBe(3);
      expect(await s.exports.countUnfinished('acct_none')).toBe(0);
      // Another account's cap is its own; without a cap, nothing is counted.
      expect(await s.exports.create(exp('exp_cap_other', 'acct_other'), { maxUnfinished: 3 })).toBe('created');
      expect(await s.exports.create(exp('exp_cap_free', 'acct_cap'))).toBe('created');
      expect(await s.exports.create(exp('exp_cap_over', 'acct_cap'), { maxUnfinished: 4 })).toBe('at_limit');
      // A running one counts; one that has finished makes room again.
      const [running, ...rest] = (await s.exports.list('acct_cap', 100)).filter((e) => e.status === 'queued');
      expect(await s.exports.start(running.id)).toBe(true);
      expect(await s.exports.create(exp('exp_cap_still_over', 'acct_cap'), { maxUnfinished: 4 })).toBe('at_limit');
      await s.exports.update(rest[0].id, { status: 'failed' });
      expect(await s.exports.create(exp('exp_cap_again', 'acct_cap'), { maxUnfinished: 4 })).toBe('created');
      // With an Idempotency-Key's reservation taken over, nothing is written either.
      const now = new Date();
      expect(await s.exports.reserveIdempotencyKey('acct_other', 'k1', 'h1', now)).toBeNull();
      const gone = { key: 'k1', reservedAt: new Date(now.getTime() - 1000).toISOString(), status: 202, body: {} };
      expect(await s.exports.create(exp('exp_cap_taken', 'acct_other'), { response: gone, maxUnfinished: 3 })).toBe('taken_over');
      expect(await s.exports.get('acct_other', 'exp_cap_taken')).toBeNull();
      const mine = { ...gone, reservedAt: now.toISOString() };
      expect(await s.exports.create(exp('exp_cap_kept', 'acct_other'), { response: mine, maxUnfinished: 3 })).toBe('created');
    }));

    it('exports: the job that runs one is queued with its row, and not at all when the create is refused', withStore(async (s) => {
      const exp = (id: string): StoredExport => ({
        id, account_id: 'acct_job', status: 'queued', format: 'csv', filters: {}, fields: null,
        estimated_rows: 1, row_count: null, files: [], created_at: new Date().toISOString(), completed_at: null, expires_at: null, error: null,
      });
      const job = (id: string) => ({ kind: 'export.run', payload: { export_id: id }, key: `export.run:${id}` });
      expect(await s.exports.create(exp('exp_job_1'), { maxUnfinished: 1, job: job('exp_job_1') })).toBe('created');
      // Refused at the cap, and refused with a reservation taken over: no row, no job.
      expect(await s.exports.create(exp('exp_job_2'), { maxUnfinished: 1, job: job('exp_job_2') })).toBe('at_limit');
      const gone = { key: 'k-job', reservedAt: new Date(Date.now() - 1000).toISOString(), status: 202, body: {} };
      expect(await s.exports.reserveIdempotencyKey('acct_job', 'k-job', 'h', new Date())).toBeNull();
      expect(await s.exports.create(exp('exp_job_3'), { response: gone, job: job('exp_job_3') })).toBe('taken_over');
      // Without a cap or a key, the job still comes with the row.
      expect(await s.exports.create(exp('exp_job_4'), { job: job('exp_job_4') })).toBe('created');
      const claimed: string[] = [];
      for (let j = await s.jobs.claim(['export.run'], 60_000); j; j = await s.jobs.claim(['export.run'], 60_000)) {
        claimed.push(String(j.payload.export_id));
        await s.jobs.complete(j);
      }
      expect(claimed.sort()).toEqual(['exp_job_1', 'exp_job_4']);
    }));

    it('webhooks: per account, subscriptions, deliveries', withStore(async (s) => {
      const w: StoredWebhook = {
        id: 'whk_1', account_id: 'acct_a', url: 'https://example.com/h', events: ['company.updated'], filters: { county: ['01'] },
        status: 'active', secret: 'whsec_x', previous_secret: null, previous_secret_expires_at: null, consecutive_failures: 0,
        failing_since: null, created_at: new Date().toISOString(),
      };
      await s.webhooks.create(w);
      expect(await s.webhooks.get('acct_b', 'whk_1')).toBeNull();
      expect((await s.webhooks.listSubscribed('company.updated', null)).map((x) => x.id)).toEqual(['whk_1']);
      expect(await s.webhooks.listSubscribed('export.completed', null)).toEqual([]);
      await s.webhooks.update('whk_1', { status: 'disabled' });
      expect(await s.webhooks.listSubscribed('company.updated', null)).toEqual([]);
      await s.webhooks.recordDelivery({ id: 'dlv_1', webhook_id: 'whk_1', event_id: 'evt_1', event_type: 'company.updated', attempt: 1, status_code: 500, duration_ms: 12, error: null, created_at: new Date().toISOString() });
      expect((await s.webhooks.listDeliveries('whk_1', 10))[0]).toMatchObject({ status_code: 500, attempt: 1 });
      expect(await s.webhooks.delete('acct_b', 'whk_1')).toBe(false);
      expect(await s.webhooks.delete('acct_a', 'whk_1')).toBe(true);
    }));

    it('webhooks: an account gets no more than its cap, also when its creates race', withStore(async (s) => {
      const hook = (id: string, account: string): StoredWebhook => ({
        id, account_id: account, url: 'https://example.com/h', events: ['company.updated'], filters: {},
        status: 'active', secret: 'whsec_x', previous_secret: null, previous_secret_expires_at: null, consecutive_failures: 0,
        failing_since: null, created_at: new Date().toISOString(),
      });
      const made = await Promise.all(Array.from({ length: 12 }, (_, i) => s.webhooks.create(hook(`whk_cap_${i}`, 'acct_cap'), { maxPerAccount: 3 })));
      expect(made.filter(Boolean)).toHaveLength(3);
      expect(await s.webhooks.list('acct_cap')).toHaveLength(3);
      // Another account's cap is its own; without a cap, nothing is counted.
      expect(await s.webhooks.create(hook('whk_cap_other', 'acct_other'), { maxPerAccount: 3 })).toBe(true);
      expect(await s.webhooks.create(hook('whk_cap_free', 'acct_cap'))).toBe(true);
      // Deleting one makes room again.
      const [first] = await s.webhooks.list('acct_cap');
      expect(await s.webhooks.delete('acct_cap', first.id)).toBe(true);
      expect(await s.webhooks.create(hook('whk_cap_again', 'acct_cap'), { maxPerAccount: 4 })).toBe(true);
      expect(await s.webhooks.create(hook('whk_cap_over', 'acct_cap'), { maxPerAccount: 4 })).toBe(false);
    }));

    it('webhooks: a failing webhook is disabled only while it is still failing as read', withStore(async (s) => {
      const since = '2026-01-01T00:00:00.000Z';
      const w: StoredWebhook = {
        id: 'whk_2', account_id: 'acct_a', url: 'https://example.com/h', events: ['company.updated'], filters: {},
        status: 'failing', secret: 'whsec_x', previous_secret: null, previous_secret_expires_at: null, consecutive_failures: 9,
        failing_since: since, created_at: since,
      };
      await s.webhooks.create(w);
      // A success reset it after it was read failing: the stale read does not disable it.
      await s.webhooks.recordOutcome('whk_2', true, { now: new Date().toISOString(), failingAfter: 7 });
      expect(await s.webhooks.disableFailing('whk_2', since)).toBe(false);
      expect((await s.webhooks.getById('whk_2'))?.status).toBe('active');
      expect(await refreshHealth(s, w, new Date('2030-01-01T00:00:00Z'), 3 * 86400)).toMatchObject({ status: 'active', failing_since: null });
      // Still failing as read: disabled.
      await s.webhooks.update('whk_2', { status: 'failing', failing_since: since });
      expect((await refreshHealth(s, w, new Date('2030-01-01T00:00:00Z'), 3 * 86400)).status).toBe('disabled');
      expect((await s.webhooks.getById('whk_2'))?.status).toBe('disabled');
      expect(await s.webhooks.disableFailing('whk_2', since)).toBe(false);
    }));

    it('exports: a run starts only from queued or running', withStore(async (s) => {
      const e: StoredExport = {
        id: 'exp_s', account_id: 'acct_a', status: 'queued', format: 'csv', filters: {}, fields: null,
        estimated_rows: 10, row_count: null, files: [], created_at: new Date().toISOString(), completed_at: null, expires_at: null, error: null,
      };
      await s.exports.create(e);
      expect(await s.exports.start('exp_s')).toBe(true);
      expect(await s.exports.getById('exp_s')).toMatchObject({ status: 'running', row_count: 0, files: [], error: null });
      await s.exports.update('exp_s', { row_count: 5, files: [{ name: 'part-1.csv', rows: 5, bytes: 9, sha256: 'x' }] });
      expect(await s.exports.start('exp_s')).toBe(true); // a run taken over starts from scratch
      expect(await s.exports.getById('exp_s')).toMatchObject({ status: 'running', row_count: 0, files: [] });
      const files = [{ name: 'part-1.csv', rows: 5, bytes: 9, sha256: 'x' }];
      expect(await s.exports.settle('exp_s', { status: 'completed', row_count: 5, files }, { id: 'evt_s', type: 'export.completed', created_at: e.created_at, data: {} })).toBe(true);
      expect(await s.exports.start('exp_s')).toBe(false);
      expect(await s.exports.getById('exp_s')).toMatchObject({ status: 'completed', row_count: 5, files });
      expect(await s.exports.start('exp_none')).toBe(false);
    }));

    it('incarnations: leases carry the holder; reaping a gone holder hands them back at once', withStore(async (s) => {
      await s.jobs.enqueueMany([{ kind: 'r', payload: { n: 1 } }, { kind: 'r', payload: { n: 2 } }]);
      // One handle stands in for two processes: its leases carry whichever incarnation registered last.
      await s.incarnations.register({ id: 'inc_a', host: 'h1', pid: 11, started_at: new Date().toISOString() });
      const [ofA] = await s.jobs.claimMany(['r'], 60_000, 1);
      expect(ofA).toBeDefined();
      await s.incarnations.register({ id: 'inc_b', host: 'h1', pid: 12, started_at: new Date().toISOString() });
      expect(await s.jobs.claimMany(['r'], 60_000, 1)).toHaveLength(1);
      expect(await s.jobs.claimMany(['r'], 60_000, 5)).toEqual([]);
      expect((await s.incarnations.onHost('h1')).map((i) => i.id).sort()).toEqual(['inc_a', 'inc_b']);
      expect(await s.incarnations.onHost('h2')).toEqual([]);
      // a's process is gone: its lease, and only its lease, is due again at once, no attempt counted.
      expect(await s.incarnations.reap('inc_a')).toBe(1);
      // Its lease is gone with it: a late settlement under it changes nothing.
      expect(await s.jobs.complete(ofA)).toBe(false);
      expect((await s.jobs.claimMany(['r'], 60_000, 5)).map((j) => [j.payload.n, j.attempts])).toEqual([[1, 0]]);
      expect((await s.incarnations.onHost('h1')).map((i) => i.id)).toEqual(['inc_b']);
    }));

    it('retention: sweep deletes exactly what its cutoffs allow', withStore(async (s) => {
      const now = Date.now();
      const iso = (msAgo: number) => new Date(now - msAgo).toISOString();
      const cut = new Date(now - 10_000);
      // jobs: an old done one and an old failed one go; a recent done one and a queued one stay
      await s.jobs.enqueueMany([
        { kind: 'k', payload: { n: 1 }, runAt: new Date(now - 60_000) },
        { kind: 'k', payload: { n: 2 }, runAt: new Date(now - 50_000) },
        { kind: 'k', payload: { n: 3 }, runAt: new Date(now - 1000) },
        { kind: 'k', payload: { n: 4 }, runAt: new Date(now + 60_000) },
      ]);
      const [a, b, c] = await s.jobs.claimMany(['k'], 60_000, 3);
      await s.jobs.settle([{ job: a, outcome: 'complete' }, { job: b, outcome: 'fail', error: 'x' }, { job: c, outcome: 'complete' }]);
      // deliveries
      for (const [id, ago] of [['dlv_old', 20_000], ['dlv_new', 1000]] as const) {
        await s.webhooks.recordDelivery({ id, webhook_id: 'whk_9', event_id: 'evt_1', event_type: 'webhook.test', attempt: 1, status_code: 200, duration_ms: 1, error: null, created_at: iso(ago) });
      }
      // exports: expired long ago, failed long ago, expired just now, running
      const base: StoredExport = { id: '', account_id: 'acct_r', status: 'completed', format: 'csv', filters: {}, fields: null, estimated_rows: 1, row_count: 1, files: [], created_at: iso(90_000), completed_at: iso(80_000), expires_at: iso(20_000), error: null };
      await s.exports.create({ ...base, id: 'exp_gone' });
      await s.exports.create({ ...base, id: 'exp_failed', status: 'failed', expires_at: null, completed_at: null });
      await s.exports.create({ ...base, id: 'exp_recent', expires_at: iso(1000) });
      await s.exports.create({ ...base, id: 'exp_running', status: 'running', expires_at: null, completed_at: null });
      // idempotency keys
      await s.exports.reserveIdempotencyKey('acct_r', 'old', 'h', new Date(now - 20_000));
      await s.exports.reserveIdempotencyKey('acct_r', 'new', 'h', new Date(now - 1000));
      // outbox: three events; the cursor has passed the first two
      for (let i = 0; i < 3; i++) await s.outbox.append({ id: `evt_r${i}`, type: 'company.updated', created_at: iso(0), data: {} }, null, null);
      const events = await s.outbox.readAfter(0, 10);
      expect(await s.outbox.advanceCursor('webhooks', await s.outbox.getCursor('webhooks'), events[1].seq)).toBe(true);

      const before = await s.retention.rowCounts();
      const result = await s.retention.sweep(
        { finishedJobsBefore: cut, deliveriesBefore: cut, exportsBefore: cut, idempotencyKeysBefore: cut, eventsBefore: new Date(now + 1000) },
        1,
      );
      expect(result).toEqual({ jobs: 2, deliveries: 1, exports: expect.arrayContaining(['exp_gone', 'exp_failed']), idempotencyKeys: 1, events: 2 });
      expect(result.exports).toHaveLength(2);
      expect(await s.retention.rowCounts()).toEqual({
        queued_jobs: before.queued_jobs, finished_jobs: before.finished_jobs - 2, deliveries: before.deliveries - 1, exports: before.exports - 2, idempotency_keys: before.idempotency_keys - 1, outbox: before.outbox - 2,
      });
      expect(await s.exports.getById('exp_recent')).not.toBeNull();
      expect(await s.exports.getById('exp_running')).not.toBeNull();
      expect((await s.webhooks.listDeliveries('whk_9', 10)).map((d) => d.id)).toEqual(['dlv_new']);
      expect((await s.outbox.readAfter(0, 10)).map((e) => e.event.id)).toEqual(['evt_r2']);
      expect(await s.exports.reserveIdempotencyKey('acct_r', 'new', 'h', new Date())).not.toBeNull();
    }));

    it('companies: bulk load, lookup by id and org_nr, streaming with filters, import', withStore(async (s) => {
      expect(await seedRegister(s, { count: 500, seed: 'contract' })).toBe(500);
      const first = await s.companies.get('c_0000001');
      expect(first).not.toBeNull();
      expect(await s.companies.get(first!.org_nr)).toEqual(first);
      expect(await s.companies.get(first!.org_nr.replace('-', ''))).toEqual(first);
      expect(await s.companies.get('c_zzzzzzz')).toBeNull();
      const filters = normalizeFilters({ county: [first!.county_code] });
      const streamed = [];
      for await (const c of s.companies.stream(filters, { batchSize: 7 })) streamed.push(c);
      expect(streamed.length).toBeGreaterThan(0);
      expect(streamed.every((c) => c.county_code === first!.county_code && c.status === 'aktiv')).toBe(true);
      expect(streamed.map((c) => c.id)).toEqual([...streamed.map((c) => c.id)].sort());
      expect((await s.companies.count(filters, 1000)).total).toBe(streamed.length);
      const result = await s.companies.importRecords(
        [{ line: 1, data: { org_nr: first!.org_nr, name: 'Renamed AB' } }],
        (record, existing, id, now) => ({ company: { ...existing!, name: String(record.data.name), id: id!, updated_at: now }, events: [] }),
      );
      expect(result.updated).toBe(1);
      expect((await s.companies.get(first!.id))?.name).toBe('Renamed AB');
      expect(withCheckDigit('556000000')).toMatch(/^556000-000\d$/);
    }));

    it('companies: an imported record PostgreSQL could not hold or index is refused at its line on both, nothing changed', withStore(async (s) => {
      await seedRegister(s, { count: 20, seed: 'contract' });
      const first = (await s.companies.get('c_0000001'))!;
      const { id: _id, ...fresh } = { ...first, org_nr: withCheckDigit('559900777') };
      for (const [line, data] of [
        [1, { org_nr: first.org_nr, name: 'Nul\u0000 AB' }],
        [2, { org_nr: first.org_nr, address: { ...first.address, city: 'Kalmar\u0007' } }],
        [3, { ...fresh, name: 'Ny\u0001 AB' }],
      ] as const) {
        const renamed = { line: 1, data: { org_nr: first.org_nr, name: 'Renamed AB' } };
        await expect(s.companies.importRecords([renamed, { line, data }], planRecord)).rejects.toThrow(/must not contain control characters/);
      }
      // What PostgreSQL cannot hold, or index: refused at the line on both stores alike.
      for (const [data, message] of [
        [{ org_nr: first.org_nr, name: 'Bad \ud800 AB' }, /line 2: name: must not contain half of a surrogate pair/],
        [{ org_nr: first.org_nr, address: { ...first.address, city: 'x\udc00' } }, /line 2: address.city: must not contain half/],
        [{ org_nr: first.org_nr, name: 'a'.repeat(2047) }, /line 2: name: is too long \(over 1000 bytes once folded\)/],
        [{ org_nr: first.org_nr, name: `${'a'.repeat(201)} AB` }, /line 2: name: has a word of over 200 letters/],
        [{ org_nr: first.org_nr, name: '\u3347'.repeat(60) }, /line 2: name: has a word of over 200 letters/],
        [{ org_nr: first.org_nr, name: 'Bygg '.repeat(201) }, /line 2: name: is too long \(over 1000 bytes once folded\)/],
        [{ org_nr: first.org_nr, address: { ...first.address, city: 'Å'.repeat(300) } }, /line 2: address.city: has a word of over 200 letters/],
        [{ org_nr: first.org_nr, category: { slug: 'no-such-category', name: 'x' } }, /line 2: category.slug: is no category we know/],
        [{ org_nr: first.org_nr, location: { lat: 1e200, lng: 1e200 } }, /line 2: location.lat:/],
        [{ ...fresh, location: { lat: 59, lng: -1e308 } }, /line 2: location.lng:/],
      ] as const) {
        const renamed = { line: 1, data: { org_nr: first.org_nr, name: 'Renamed AB' } };
        await expect(s.companies.importRecords([renamed, { line: 2, data }], planRecord), JSON.stringify(data).slice(0, 80)).rejects.toThrow(message);
      }
      expect(await s.companies.get(first.id)).toEqual(first);
      expect(await s.companies.get(withCheckDigit('559900777'))).toBeNull();
      expect(await s.outbox.readAfter(0, 10)).toEqual([]);
      // The longest that fits is taken, on both, and found by its words.
      const longest = `${'a'.repeat(200)} ${'Bygg '.repeat(150)}`.trim();
      expect((await s.companies.importRecords([{ line: 1, data: { org_nr: first.org_nr, name: longest } }], planRecord)).updated).toBe(1);
      expect((await s.companies.get(first.id))?.name).toBe(longest);
      const found = await s.companies.search(toSearchQuery(SEARCH_QUERY_SCHEMA.parse({ q: 'a'.repeat(200), status: 'all' })), null);
      expect(found.rows.map((c) => c.id)).toEqual([first.id]);
    }));
  });
}
