// A full disk while an export part is written: that export fails with storage_error (no path in
// its message), its partial files are gone, and the server keeps serving, other exports included.
// The real binary runs with its export folder on a 512 KiB tmpfs, mounted in a private mount
// namespace (unshare; root is not needed where unprivileged user namespaces are allowed).
import { execa, type ResultPromise } from 'execa';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/start.js';
import { cleanEnv } from '../cli/helpers.js';
import { ensureBuilt, ROOT } from './built.js';
import { api, waitForExport } from './helpers.js';

let dir: string;
let key: string;
let child: ResultPromise | undefined;
let url = '';
let unsupported = '';

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'bolag-full-disk-'));
  const s = await startServer({ port: 0, dbPath: join(dir, 'register.db'), seedCount: 3000, workers: false });
  key = s.apiKey!;
  await s.close();
  mkdirSync(join(dir, 'exports'), { recursive: true });
  const probe = await execa('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', `mount -t tmpfs -o size=512k tmpfs ${join(dir, 'exports')}`], { reject: false });
  if (probe.exitCode !== 0) {
    unsupported = `no private tmpfs here (${(probe.stderr || probe.message).split('\n')[0]})`;
    return;
  }
  const serve = `mount -t tmpfs -o size=512k tmpfs ${join(dir, 'exports')} && exec node ${join(ROOT, 'bin/bolag.js')} serve --port 0 --db ${join(dir, 'register.db')}`;
  child = execa('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', serve], { reject: false, buffer: false, extendEnv: false, env: cleanEnv({ BOLAG_HOME: join(dir, 'home') }) });
  let stderr = '';
  url = await new Promise<string>((resolve, reject) => {
    child!.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /listening on (\S+)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    child!.on('exit', () => reject(new Error(stderr)));
  });
}, 180_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('a full disk during an export', () => {
  it('fails that export with storage_error, and the server keeps serving', async (ctx) => {
    if (unsupported) ctx.skip();
    const big = (await api({ url }, key, 'POST', '/exports', { format: 'jsonl', filters: { status: 'all', exclude_advertising_blocked: false } })).body.data;
    const failed = await waitForExport({ url }, key, big.id, 60_000);
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('storage_error');
    expect(failed.error.message).not.toMatch(/\/|\\/);
    expect(failed.files).toEqual([]);
    // The space is free again: a small export completes, and search answers.
    const small = (await api({ url }, key, 'POST', '/exports', { format: 'csv', filters: { q: 'bygg', status: 'all' }, fields: ['name'] })).body.data;
    expect((await waitForExport({ url }, key, small.id, 60_000)).status).toBe('completed');
    const search = await api({ url }, key, 'GET', '/companies?limit=3');
    expect(search.status).toBe(200);
    expect(search.body.data).toHaveLength(3);
  }, 120_000);
});
