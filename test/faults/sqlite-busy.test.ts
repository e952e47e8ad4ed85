// SQLite busy: another process holds the write lock longer than the busy timeout (5 s), for
// example a large `bolag db import`. A request that needs to write then gets 503 with
// Retry-After in the contract's shape, not a 500; reads go on (WAL); once the lock is released,
// writes succeed again.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/start.js';

let dir: string;
let server: RunningServer;
let holder: Database.Database | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bolag-busy-'));
  server = await startServer({ port: 0, dbPath: join(dir, 'register.db'), seedCount: 200, workers: false, rateLimit: { max: 0, windowMs: 60_000 } });
}, 60_000);

afterAll(async () => {
  if (holder?.inTransaction) holder.exec('ROLLBACK');
  holder?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

it('a write that waits past the busy timeout is a 503 with Retry-After; reads go on; writes work once the lock is gone', async () => {
  holder = new Database(join(dir, 'register.db'));
  holder.exec('BEGIN IMMEDIATE'); // the write lock, held as a long import would
  holder.prepare("UPDATE settings SET value = value WHERE name = 'signing_key'").run();

  const read = await call('GET', '/companies?limit=3');
  expect(read.status).toBe(200);

  const write = await call('POST', '/exports', { format: 'csv' });
  expect(write.status, write.text).toBe(503);
  expect(write.body.error.code).toBe('service_unavailable');
  expect(write.body.meta.request_id).toBe(write.headers.get('request-id'));
  expect(Number(write.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(write.text).not.toMatch(/SQLITE|database is locked|stack/i);

  holder.exec('COMMIT');
  const again = await call('POST', '/exports', { format: 'csv' });
  expect(again.status, again.text).toBe(202);
}, 30_000);
