// What several processes on one store rely on, for every Store implementation: a job is claimed
// once however many claimers race, only the current lease holder settles, export files stream
// back byte for byte with ranges, and rate windows never hand out more than their limit.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

export function workContract(name: string, open: () => Promise<Store>): void {
  describe(`Store work contract: ${name}`, () => {
    const withStore = (fn: (s: Store) => Promise<void>) => async () => {
      const store = await open();
      try {
        await fn(store);
      } finally {
        await store.close();
      }
    };

    it('only the current lease holder extends or settles a job; a late settlement does nothing', withStore(async (s) => {
      await s.jobs.enqueue('k', { n: 1 });
      const first = (await s.jobs.claim(['k'], 30))!;
      expect(await s.jobs.extend(first, 30)).toBe(true);
      await new Promise((r) => setTimeout(r, 60));
      const second = (await s.jobs.claim(['k'], 10_000))!; // the first worker's lease lapsed
      expect(second.id).toBe(first.id);
      expect(second.lease).not.toBe(first.lease);
      expect(await s.jobs.extend(first, 10_000)).toBe(false);
      expect(await s.jobs.complete(first)).toBe(false);
      expect(await s.jobs.retry(first, new Date(), 'late')).toBe(false);
      await s.jobs.settle([{ job: first, outcome: 'fail', error: 'late' }]);
      expect(await s.jobs.claim(['k'], 10)).toBeNull(); // still held by the second claim
      await s.jobs.settle([{ job: second, outcome: 'retry', runAt: new Date(Date.now() - 1), error: 'again' }]);
      const third = (await s.jobs.claim(['k'], 10_000))!;
      expect(third).toMatchObject({ id: first.id, attempts: 1 });
      expect(await s.jobs.release(third)).toBe(true);
      const fourth = (await s.jobs.claim(['k'], 10_000))!;
      expect(fourth.attempts).toBe(1); // a release counts no attempt
      expect(await s.jobs.complete(fourth)).toBe(true);
      expect(await s.jobs.claim(['k'], 10)).toBeNull();
    }));

    it('racing claimers get each job exactly once', withStore(async (s) => {
      const n = 120;
      await s.jobs.enqueueMany(Array.from({ length: n }, (_, i) => ({ kind: 'race', payload: { i }, key: `race:${i}` })));
      await s.jobs.enqueueMany([{ kind: 'race', payload: { i: 0 }, key: 'race:0' }]); // deduped
      const claimed: string[] = [];
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          for (;;) {
            const jobs = await s.jobs.claimMany(['race'], 60_000, 7);
            if (jobs.length === 0) return;
            claimed.push(...jobs.map((j) => j.id));
            await s.jobs.settle(jobs.map((job) => ({ job, outcome: 'complete' as const })));
          }
        }),
      );
      expect(claimed.length).toBe(n);
      expect(new Set(claimed).size).toBe(n);
    }));

    it('a claim can leave out jobs by a payload field (a webhook with its share in flight)', withStore(async (s) => {
      await s.jobs.enqueueMany([
        { kind: 'd', payload: { webhook_id: 'whk_a', n: 1 } },
        { kind: 'd', payload: { webhook_id: 'whk_b', n: 2 } },
        { kind: 'd', payload: { webhook_id: 'whk_a', n: 3 } },
        { kind: 'd', payload: { n: 4 } },
      ]);
      const some = await s.jobs.claimMany(['d'], 60_000, 10, { skip: [{ field: 'webhook_id', values: ['whk_a'] }] });
      expect(some.map((j) => j.payload.n).sort()).toEqual([2, 4]);
      const rest = await s.jobs.claimMany(['d'], 60_000, 10, { skip: [{ field: 'webhook_id', values: [] }] });
      expect(rest.map((j) => j.payload.n).sort()).toEqual([1, 3]);
    }));

    it('a claim can put the jobs of listed accounts last, in the list\'s order (fair export claims)', withStore(async (s) => {
      const at = (ms: number) => new Date(Date.now() - 10_000 + ms);
      await s.jobs.enqueueMany([
        { kind: 'e', payload: { account_id: 'acc_a', n: 1 }, runAt: at(1) },
        { kind: 'e', payload: { account_id: 'acc_a', n: 2 }, runAt: at(2) },
        { kind: 'e', payload: { account_id: 'acc_b', n: 3 }, runAt: at(3) },
        { kind: 'e', payload: { account_id: 'acc_c', n: 4 }, runAt: at(4) },
        { kind: 'e', payload: { n: 5 }, runAt: at(5) },
      ]);
      const one = async (values: string[]) => (await s.jobs.claimMany(['e'], 60_000, 1, { last: { field: 'account_id', values } }))[0]?.payload.n;
      // acc_a served most recently and acc_b before it: acc_c, then the job without an account, come first.
      expect(await one(['acc_b', 'acc_a'])).toBe(4);
      expect(await one(['acc_b', 'acc_a'])).toBe(5);
      expect(await one(['acc_b', 'acc_a'])).toBe(3);
      expect(await one(['acc_b', 'acc_a'])).toBe(1);
      expect(await one([])).toBe(2);
      expect(await one([])).toBeUndefined();
    }));

    it('a capped claim takes no more per webhook and per account than there is room for', withStore(async (s) => {
      const at = (ms: number) => new Date(Date.now() - 10_000 + ms);
      const jobs = [
        ...Array.from({ length: 6 }, (_, i) => ({ webhook_id: 'whk_a', account_id: 'acc_1', n: i })),
        { webhook_id: 'whk_b', account_id: 'acc_1', n: 6 },
        { webhook_id: 'whk_c', account_id: 'acc_1', n: 7 },
        { webhook_id: 'whk_d', account_id: 'acc_2', n: 8 },
        { webhook_id: 'whk_e', n: 9 },
      ];
      await s.jobs.enqueueMany(jobs.map((payload, i) => ({ kind: 'd', payload, runAt: at(i) })));
      const caps = (busyWebhooks: [string, number][], busyAccounts: [string, number][]) => [
        { field: 'webhook_id', max: 4, busy: new Map(busyWebhooks) },
        { field: 'account_id', max: 5, busy: new Map(busyAccounts) },
      ];
      // whk_a has 1 in flight (room 3), acc_1 has 1 (room 4): three of whk_a, then whk_b; not whk_c.
      const first = await s.jobs.claimMany(['d'], 60_000, 10, { caps: caps([['whk_a', 1]], [['acc_1', 1]]) });
      expect(first.map((j) => j.payload.n).sort((a, b) => Number(a) - Number(b))).toEqual([0, 1, 2, 6, 8, 9]);
      // Nothing of a full webhook or account, the rest by age up to the limit.
      const second = await s.jobs.claimMany(['d'], 60_000, 1, { caps: caps([['whk_a', 4]], [['acc_2', 5]]) });
      expect(second.map((j) => j.payload.n)).toEqual([7]);
      const rest = await s.jobs.claimMany(['d'], 60_000, 10, { caps: caps([], []) });
      expect(rest.map((j) => j.payload.n).sort((a, b) => Number(a) - Number(b))).toEqual([3, 4, 5]);
    }));

    it('leasedValues: the payload values of the jobs of a kind under a live lease', withStore(async (s) => {
      await s.jobs.enqueueMany([
        { kind: 'x', payload: { account_id: 'acc_1' } },
        { kind: 'x', payload: { account_id: 'acc_2' } },
        { kind: 'x', payload: { n: 3 } },
        { kind: 'y', payload: { account_id: 'acc_3' } },
      ]);
      expect(await s.jobs.leasedValues('x', 'account_id')).toEqual([]);
      const claimed = await s.jobs.claimMany(['x', 'y'], 60_000, 10);
      expect((await s.jobs.leasedValues('x', 'account_id')).sort()).toEqual(['acc_1', 'acc_2']);
      for (const job of claimed.filter((j) => j.payload.account_id === 'acc_1')) await s.jobs.release(job);
      expect(await s.jobs.leasedValues('x', 'account_id')).toEqual(['acc_2']);
      await expect(s.jobs.leasedValues('x', "a') OR 1=1 --")).rejects.toThrow(/invalid payload field/);
    }));

    it('a capped claim reads a window at the head; pastFull walks past the backlog of a full webhook', withStore(async (s) => {
      const at = (ms: number) => new Date(Date.now() - 10_000 + ms);
      await s.jobs.enqueueMany([
        ...Array.from({ length: 40 }, (_, i) => ({ kind: 'd', payload: { webhook_id: 'whk_busy', n: i }, runAt: at(i) })),
        { kind: 'd', payload: { webhook_id: 'whk_idle', n: 40 }, runAt: at(40) },
      ]);
      const caps = [{ field: 'webhook_id', max: 4, busy: new Map([['whk_busy', 4]]) }];
      // The window (32 rows here) holds only the full webhook's jobs.
      expect(await s.jobs.claimMany(['d'], 60_000, 1, { caps })).toEqual([]);
      expect((await s.jobs.claimMany(['d'], 60_000, 1, { caps, pastFull: true })).map((j) => j.payload.n)).toEqual([40]);
    }));

    it('pastFull reads each other webhook\'s due head: room, full accounts, leases and run_at respected, oldest first', withStore(async (s) => {
      const at = (ms: number) => new Date(Date.now() - 10_000 + ms);
      await s.jobs.enqueueMany([
        ...Array.from({ length: 40 }, (_, i) => ({ kind: 'd', payload: { webhook_id: 'whk_busy', account_id: 'acc_1', n: i }, runAt: at(i) })),
        { kind: 'd', payload: { webhook_id: 'whk_account_full', account_id: 'acc_2', n: 40 }, runAt: at(40) },
        ...[41, 42, 43, 44].map((n) => ({ kind: 'd', payload: { webhook_id: 'whk_two', account_id: 'acc_3', n }, runAt: at(n) })),
        { kind: 'd', payload: { webhook_id: 'whk_one', account_id: 'acc_4', n: 45 }, runAt: at(-1) },
        { kind: 'd', payload: { webhook_id: 'whk_later', account_id: 'acc_4', n: 46 }, runAt: new Date(Date.now() + 60_000) },
        { kind: 'other', payload: { webhook_id: 'whk_other', n: 47 }, runAt: at(0) },
      ]);
      // One of whk_two's jobs is leased already (claimed by its own webhook's cap alone).
      const leased = await s.jobs.claimMany(['d'], 60_000, 1, { skip: [{ field: 'webhook_id', values: ['whk_busy', 'whk_account_full', 'whk_one'] }] });
      expect(leased.map((j) => j.payload.n)).toEqual([41]);
      const caps = [
        { field: 'webhook_id', max: 4, busy: new Map([['whk_busy', 4], ['whk_two', 2]]) },
        { field: 'account_id', max: 5, busy: new Map([['acc_2', 5]]) },
      ];
      // whk_two has room for 2 more (42, 43; 41 is leased), whk_one for its one job, due first.
      const claimed = await s.jobs.claimMany(['d'], 60_000, 10, { caps, pastFull: true });
      expect(claimed.map((j) => j.payload.n)).toEqual([45, 42, 43]);
      expect(await s.jobs.claimMany(['d'], 60_000, 10, { caps: [{ ...caps[0], busy: new Map([['whk_busy', 4], ['whk_two', 4], ['whk_one', 1]]) }, caps[1]], pastFull: true })).toEqual([]);
    }));

    it('a claim can leave out jobs by several payload fields at once (a webhook, an account)', withStore(async (s) => {
      await s.jobs.enqueueMany([
        { kind: 'd', payload: { webhook_id: 'whk_a', account_id: 'acc_1', n: 1 } },
        { kind: 'd', payload: { webhook_id: 'whk_b', account_id: 'acc_1', n: 2 } },
        { kind: 'd', payload: { webhook_id: 'whk_c', account_id: 'acc_2', n: 3 } },
        { kind: 'd', payload: { webhook_id: 'whk_d', account_id: 'acc_2', n: 4 } },
        { kind: 'd', payload: { webhook_id: 'whk_e', n: 5 } },
      ]);
      const skip = [
        { field: 'webhook_id', values: ['whk_c'] },
        { field: 'account_id', values: ['acc_1'] },
      ];
      expect((await s.jobs.claimMany(['d'], 60_000, 10, { skip })).map((j) => j.payload.n).sort()).toEqual([4, 5]);
      expect((await s.jobs.claimMany(['d'], 60_000, 10)).map((j) => j.payload.n).sort()).toEqual([1, 2, 3]);
      // A field's name is written into the SQL: anything but a plain name is refused.
      await expect(s.jobs.claimMany(['d'], 60_000, 10, { skip: [{ field: "x') OR 1=1 --", values: ['y'] }] })).rejects.toThrow(/invalid payload field/);
    }));

    it('export files: parts written in pieces read back whole and by range; unfinished parts are invisible', withStore(async (s) => {
      const bytes = randomBytes(2_500_000 + 123);
      const sink = await s.exportFiles.createPart('exp_f', 'part-001.csv');
      for (let at = 0; at < bytes.length; at += 300_001) await sink.write(bytes.subarray(at, at + 300_001));
      expect(await s.exportFiles.size('exp_f', 'part-001.csv')).toBeNull(); // not finished yet
      await sink.finish();
      expect(await s.exportFiles.size('exp_f', 'part-001.csv')).toBe(bytes.length);
      const whole = await readAll(s.exportFiles.read('exp_f', 'part-001.csv'));
      expect(createHash('sha256').update(whole).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
      for (const [start, end] of [[0, 0], [1_048_570, 1_048_580], [5, 2_200_000], [bytes.length - 10, bytes.length - 1]]) {
        expect((await readAll(s.exportFiles.read('exp_f', 'part-001.csv', { start, end }))).equals(bytes.subarray(start, end + 1))).toBe(true);
      }
      const dropped = await s.exportFiles.createPart('exp_f', 'part-002.csv');
      await dropped.write(Buffer.from('half'));
      await dropped.abort();
      expect(await s.exportFiles.size('exp_f', 'part-002.csv')).toBeNull();
      // A second run writing the same part replaces it whole.
      const rerun = await s.exportFiles.createPart('exp_f', 'part-001.csv');
      await rerun.write(Buffer.from('second run'));
      await rerun.finish();
      expect((await readAll(s.exportFiles.read('exp_f', 'part-001.csv'))).toString()).toBe('second run');
      await s.exportFiles.clear('exp_f');
      expect(await s.exportFiles.size('exp_f', 'part-001.csv')).toBeNull();
    }));

    it('a delivery attempt is recorded with its job\'s settlement, only under the current lease, once', withStore(async (s) => {
      await s.webhooks.create({
        id: 'whk_w', account_id: 'acct_w', url: 'https://example.com/h', events: ['company.updated'], filters: {}, status: 'active',
        secret: 'whsec_x', previous_secret: null, previous_secret_expires_at: null, consecutive_failures: 0, failing_since: null,
        created_at: new Date().toISOString(),
      });
      const attempt = (id: string) => ({
        id, webhook_id: 'whk_w', event_id: 'evt_w', event_type: 'company.updated', attempt: 1, status_code: 200, duration_ms: 5, error: null,
        created_at: new Date().toISOString(),
      });
      await s.jobs.enqueue('webhook.deliver', { n: 1 }, { key: 'whk_w:evt_w' });
      const first = (await s.jobs.claim(['webhook.deliver'], 30))!;
      await new Promise((r) => setTimeout(r, 60));
      const second = (await s.jobs.claim(['webhook.deliver'], 10_000))!; // the first worker's lease lapsed
      // The first worker reports late: neither its settlement nor its attempt is written.
      await s.webhooks.recordAttempts([{ job: { job: first, outcome: 'complete' }, delivery: attempt('dlv_late'), ok: true }], { failingAfter: 7 });
      expect(await s.webhooks.listDeliveries('whk_w', 10)).toEqual([]);
      await s.webhooks.recordAttempts([{ job: { job: second, outcome: 'complete' }, delivery: attempt('dlv_ok'), ok: true }], { failingAfter: 7 });
      // Written again (a flush whose answer was lost): the job is settled already, nothing is added.
      await s.webhooks.recordAttempts([{ job: { job: second, outcome: 'complete' }, delivery: attempt('dlv_again'), ok: true }], { failingAfter: 7 });
      expect((await s.webhooks.listDeliveries('whk_w', 10)).map((d) => d.id)).toEqual(['dlv_ok']);
      expect(await s.jobs.claim(['webhook.deliver'], 10)).toBeNull();
    }));

    it('a batch of attempts: each job settled its own way, a stale one skipped, the webhook\'s health in the attempts\' order', withStore(async (s) => {
      await s.webhooks.create({
        id: 'whk_b', account_id: 'acct_b', url: 'https://example.com/h', events: ['company.updated'], filters: {}, status: 'active',
        secret: 'whsec_x', previous_secret: null, previous_secret_expires_at: null, consecutive_failures: 0, failing_since: null,
        created_at: new Date().toISOString(),
      });
      await s.jobs.enqueue('late', { n: 0 });
      const stale = (await s.jobs.claim(['late'], 30))!;
      await new Promise((r) => setTimeout(r, 60));
      const current = (await s.jobs.claim(['late'], 60_000))!;
      await s.jobs.enqueue('again', { n: 0 });
      const lapsed = (await s.jobs.claim(['again'], 30))!;
      await new Promise((r) => setTimeout(r, 60));
      const retaken = (await s.jobs.claim(['again'], 60_000))!;
      await s.jobs.enqueueMany(['a', 'b', 'c', 'd'].map((n) => ({ kind: 'deliver', payload: { n } })));
      const [a, b, c, d] = (await s.jobs.claimMany(['deliver'], 60_000, 4)).sort((x, y) => String(x.payload.n).localeCompare(String(y.payload.n)));
      const at = (ms: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, 0, ms)).toISOString();
      const attempt = (id: string, ok: boolean, ms: number) => ({
        id, webhook_id: 'whk_b', event_id: `evt_${id}`, event_type: 'company.updated', attempt: 1, status_code: ok ? 200 : 500,
        duration_ms: 3, error: ok ? null : 'HTTP 500', created_at: at(ms),
      });
      await s.webhooks.recordAttempts([
        { job: { job: a, outcome: 'retry', runAt: new Date(Date.now() - 1000), error: 'HTTP 500' }, delivery: attempt('dlv_a', false, 1), ok: false },
        { job: { job: b, outcome: 'fail', error: 'HTTP 500' }, delivery: attempt('dlv_b', false, 2), ok: false },
        { job: { job: c, outcome: 'complete' }, delivery: attempt('dlv_c', true, 3), ok: true },
        { job: { job: stale, outcome: 'complete' }, delivery: attempt('dlv_stale', true, 4), ok: true },
        // One job under its lapsed lease and under the current one, in the same batch: only the current one counts.
        { job: { job: lapsed, outcome: 'complete' }, delivery: attempt('dlv_lapsed', true, 4), ok: true },
        { job: { job: retaken, outcome: 'complete' }, delivery: attempt('dlv_retaken', true, 4), ok: true },
        { job: { job: d, outcome: 'retry', runAt: new Date(Date.now() + 3_600_000), error: 'HTTP 500' }, delivery: attempt('dlv_d', false, 5), ok: false },
      ], { failingAfter: 1 });
      expect((await s.webhooks.listDeliveries('whk_b', 10)).map((x) => x.id).sort()).toEqual(['dlv_a', 'dlv_b', 'dlv_c', 'dlv_d', 'dlv_retaken']);
      // fail, fail, success, success, fail: the successes cleared the first two; the last one counts alone.
      expect(await s.webhooks.getById('whk_b')).toMatchObject({ status: 'failing', consecutive_failures: 1, failing_since: at(5) });
      // Only the retry due again comes back, with its attempt counted; the stale claim's job is still held by the current one.
      const again = await s.jobs.claimMany(['deliver'], 60_000, 10);
      expect(again.map((j) => [j.payload.n, j.attempts])).toEqual([['a', 1]]);
      expect(await s.jobs.complete(current)).toBe(true);
      expect(await s.jobs.claim(['again'], 60_000)).toBeNull();
    }));

    it('rate windows: racing takers never get more than the limit between them', withStore(async (s) => {
      const start = Date.now() - (Date.now() % 60_000);
      const got = await Promise.all(Array.from({ length: 12 }, () => s.rateWindows.take('key_1', start, 5, 37)));
      expect(got.reduce((a, b) => a + b.granted, 0)).toBe(37);
      expect(Math.max(...got.map((g) => g.used))).toBe(37);
      expect(await s.rateWindows.take('key_1', start, 5, 37)).toEqual({ granted: 0, used: 37 });
      await s.rateWindows.giveBack('key_1', start, 3);
      expect(await s.rateWindows.take('key_1', start, 5, 37)).toEqual({ granted: 3, used: 37 });
      expect(await s.rateWindows.take('key_1', start + 60_000, 5, 37)).toEqual({ granted: 5, used: 5 }); // a new window
      expect((await s.rateWindows.take('key_2', start, 5, 37)).granted).toBe(5); // per key
    }));
  });
}
