// Two `bolag serve` processes started at the same moment on a new SQLite file, as a service
// manager starting two units does: one creates the register and the local account, the other
// waits for it (a lock file beside the database) and serves the same register. Before, both
// seeded: the second emptied the tables under the first, or failed on the write lock.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from '../exports/built.js';
import { call, waitFor } from '../webhooks/helpers.js';
import { bolagRun, startReplica, type Replica } from './helpers.js';

let dir: string;
let replicas: Replica[] = [];

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'bolag-mp-first-start-'));
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  rmSync(dir, { recursive: true, force: true });
});

it('creates the register once when two serve processes start at once on a new file', async () => {
  const db = join(dir, 'register.db');
  const env = { BOLAG_HOME: join(dir, 'home') };
  const flags = ['--db', db, '--seed-count', '40000', '--rate-limit', '0'];
  replicas = await Promise.all([startReplica(flags, env), startReplica(flags, env)]);
  await waitFor(() => replicas.some((r) => r.key()), { what: 'the local account key' });
  const printed = replicas.map((r) => r.key()).filter(Boolean);
  expect(printed).toHaveLength(1); // one account, created by the process that seeded
  // The other said why it waited (when it came second while the first was still seeding).
  const waited = replicas.filter((r) => r.stderr().includes('Another process is creating the register; waiting for it'));
  expect(waited.length).toBeLessThanOrEqual(1);
  if (waited.length === 1) expect(waited[0].key()).toBeUndefined();
  const key = printed[0]!;
  const pages = await Promise.all(replicas.map((r) => call(r.url, key, 'GET', '/companies?limit=5&include_total=true&legal_form=aktiebolag')));
  for (const page of pages) expect(page.status).toBe(200);
  expect(pages[1].body).toEqual({ ...pages[0].body, meta: pages[1].body.meta });
  expect(existsSync(`${db}.bootstrap.lock`)).toBe(false);

  await Promise.all(replicas.map((r) => r.stop()));
  const stats = await bolagRun(['db', 'stats', '--db', db], env);
  expect(stats.exitCode, String(stats.stderr)).toBe(0);
  expect(String(stats.stdout)).toMatch(/"companies":\s*40000\b/);
});
