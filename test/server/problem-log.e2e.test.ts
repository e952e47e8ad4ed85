// `bolag serve` says what goes wrong without --verbose: a 500 is logged on stderr with the
// request id the client was given, and a worker whose rounds fail says so (once a minute, not
// every poll); a request that goes well logs nothing. The real binary, on a SQLite file whose
// jobs table another connection takes away.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProblemLog } from '../../src/app/problem-log.js';
import { ensureBuilt } from '../exports/built.js';
import { startReplica, sleep, type Replica } from '../multiprocess/helpers.js';
import { call, waitFor } from '../webhooks/helpers.js';

let dir: string;
let serve: Replica;
beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'bolag-problem-log-'));
  serve = await startReplica(['--db', join(dir, 'register.db'), '--seed-count', '300', '--rate-limit', '0'], { BOLAG_HOME: join(dir, 'home') });
}, 120_000);
afterAll(async () => {
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const logLines = () =>
  serve
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; reqId?: string; repeated?: number; err?: { message?: string } });

it('logs a 500 with its request id and a failing worker, and nothing for requests that go well', async () => {
  const key = await waitFor(() => serve.key(), { what: 'the local account key' });
  expect((await call(serve.url, key, 'GET', '/companies?limit=1')).status).toBe(200);
  expect(logLines()).toEqual([]);

  const side = new Database(join(dir, 'register.db'));
  try {
    side.exec('ALTER TABLE jobs RENAME TO jobs_away');
    const failed = await call(serve.url, key, 'POST', '/exports', { format: 'csv' });
    expect(failed.status).toBe(500);
    const id = failed.body.meta.request_id;
    // The workers poll several times a second; each kind is said once.
    await sleep(1500);
    const lines = logLines();
    const request = lines.find((l) => l.reqId === id);
    expect(request, serve.stderr()).toMatchObject({ level: 50, msg: 'request failed' });
    expect(request!.err?.message).toMatch(/jobs/);
    const claims = lines.filter((l) => l.msg === 'export worker: a claim failed (retried)');
    expect(claims).toHaveLength(1);
    expect(claims[0].level).toBe(40);
  } finally {
    side.exec('ALTER TABLE jobs_away RENAME TO jobs');
    side.close();
  }
  expect((await call(serve.url, key, 'POST', '/exports', { format: 'csv' })).status).toBe(202);
  // Nothing but JSON log lines and the start's own words on stderr; no API key in them.
  expect(serve.stderr()).not.toContain(key);
}, 60_000);

it('says a failure that repeats once a minute, with how often it happened meanwhile', () => {
  const said: { obj: Record<string, unknown>; msg: string }[] = [];
  let now = 0;
  const log = new ProblemLog({ warn: (obj, msg) => said.push({ obj: obj as Record<string, unknown>, msg }), error: () => {} }, () => now);
  for (let i = 0; i < 5; i++) log.warn('a', new Error('down'));
  log.warn('b', new Error('other'));
  now = 61_000;
  log.warn('a', new Error('down'));
  expect(said.map((s) => [s.msg, s.obj.repeated])).toEqual([['a', undefined], ['b', undefined], ['a', 4]]);
  new ProblemLog(undefined).warn('nowhere', new Error('x')); // no logger: nothing, no throw
});
