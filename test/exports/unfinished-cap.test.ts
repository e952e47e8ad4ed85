// An account's queued and running exports are capped (LIMITS.unfinishedExportsPerAccount): past
// the cap POST /exports is a 429 with Retry-After, another account is not held back, and a
// finished export makes room. The server runs no workers, so what is created stays queued.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIMITS } from '../../src/core/values.js';
import { EXPORT_JOB } from '../../src/exports/worker.js';
import { api, startTestServer, waitForExport, type TestServer } from './helpers.js';

let t: TestServer;
let other: string;

beforeAll(async () => {
  t = await startTestServer({ workers: false });
  other = await t.keyFor('other-account', ['exports:create', 'exports:read']);
}, 60_000);
afterAll(async () => t?.cleanup());

/** Export jobs waiting (claimed and handed straight back, no attempt counted). */
async function queuedJobs(): Promise<number> {
  const jobs = await t.store().jobs.claimMany([EXPORT_JOB], 60_000, 1000);
  for (const j of jobs) expect(await t.store().jobs.release(j)).toBe(true);
  return jobs.length;
}

const create = (key: string, headers: Record<string, string> = {}) => api(t, key, 'POST', '/exports', { format: 'jsonl', filters: { county: '01' } }, headers);

it("refuses an account's export past its cap of unfinished ones with 429, also when they race, and makes room when one finishes", async () => {
  const max = LIMITS.unfinishedExportsPerAccount;
  const raced = await Promise.all(Array.from({ length: max + 4 }, () => create(t.key)));
  expect(raced.filter((r) => r.status === 202)).toHaveLength(max);
  const refused = raced.filter((r) => r.status !== 202);
  expect(refused).toHaveLength(4);
  for (const r of refused) {
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('rate_limited');
    expect(r.body.error.message).toContain(`already has ${max} exports queued or running`);
    expect(r.headers.get('retry-after')).toBe(String(LIMITS.unfinishedExportsRetryAfterSeconds));
    expect(r.body.meta.request_id).toBe(r.headers.get('request-id'));
  }
  const listed = await api(t, t.key, 'GET', `/exports?limit=${max + 10}`);
  expect(listed.body.data).toHaveLength(max);
  // Those refused in the race (past the first count, at the one in the create's transaction)
  // left no job behind either: one job an export.
  expect(await queuedJobs()).toBe(max);

  // Another account has its own.
  expect((await create(other)).status).toBe(202);

  // A refused request's Idempotency-Key is not spent: the same key succeeds once there is room.
  // Nor does it leave a job behind for a worker to look for its export.
  const jobsBefore = await queuedJobs();
  const keyed = await create(t.key, { 'Idempotency-Key': 'cap-key-1' });
  expect(keyed.status).toBe(429);
  expect(await queuedJobs()).toBe(jobsBefore);

  // Workers on: the queued exports finish, and the account may create again.
  await t.stop();
  await t.start({ workers: true });
  for (const e of listed.body.data) expect((await waitForExport(t, t.key, e.id)).status).toBe('completed');
  const again = await create(t.key, { 'Idempotency-Key': 'cap-key-1' });
  expect(again.status).toBe(202);
  expect((await create(t.key, { 'Idempotency-Key': 'cap-key-1' })).body.data.id).toBe(again.body.data.id);
}, 120_000);
