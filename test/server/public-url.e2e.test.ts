// `bolag serve --public-url` as an operator runs it: the real binary, a real port, and the
// links it hands out (Location, download_url, files[].url) fetched over loopback.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../exports/built.js';

const BIN = join(ROOT, 'bin/bolag.js');
let work: string;

function env(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: work, BOLAG_HOME: join(work, 'home'), LANG: 'C.UTF-8' };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

/** Starts `bolag serve`, resolving with the process and its key once it listens. */
async function serve(args: string[]): Promise<{ proc: ResultPromise; key: string; stderr: () => string }> {
  const proc = execa('node', [BIN, 'serve', '--db', join(work, `r-${Date.now()}.db`), '--seed-count', '800', ...args], {
    reject: false,
    extendEnv: false,
    env: env(),
  });
  let out = '';
  let err = '';
  proc.stdout?.on('data', (b: Buffer) => (out += b));
  proc.stderr?.on('data', (b: Buffer) => (err += b));
  const deadline = Date.now() + 60_000;
  while (!/^bolag serve: listening on /m.test(err) || out.trim() === '') {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { proc, key: out.trim(), stderr: () => err };
}

beforeAll(async () => {
  await ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'bolag-public-url-'));
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('bolag serve --public-url', () => {
  it('takes the service root and hands out links that answer', async () => {
    const port = await freePort();
    const root = `http://127.0.0.1:${port}`;
    const { proc, key, stderr } = await serve(['--port', String(port), '--public-url', root]);
    try {
      expect(stderr()).toContain(`bolag serve: API reference at ${root}/docs`);
      const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const created = await fetch(`${root}/api/public/v1/exports`, { method: 'POST', headers: auth, body: JSON.stringify({ format: 'jsonl', filters: { status: 'all' } }) });
      expect(created.status).toBe(202);
      const location = created.headers.get('location') as string;
      expect(location).toMatch(new RegExp(`^${root}/api/public/v1/exports/exp_`));
      let record: { status: string; download_url: string; files: { url: string }[] } | undefined;
      for (let i = 0; i < 200; i++) {
        const r = await fetch(location, { headers: auth });
        expect(r.status).toBe(200);
        record = ((await r.json()) as { data: typeof record }).data;
        if (record?.status === 'completed' || record?.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(record?.status).toBe('completed');
      const links = [record!.download_url, ...record!.files.map((f) => f.url)];
      expect(links.length).toBeGreaterThanOrEqual(2);
      for (const link of links) {
        expect(link.startsWith(`${root}/api/public/v1/exports/`)).toBe(true);
        const r = await fetch(link); // signed: no key
        expect(r.status, link).toBe(200);
        expect((await r.text()).split('\n').filter(Boolean).length).toBeGreaterThan(0);
      }
    } finally {
      proc.kill('SIGTERM');
      await proc;
    }
  }, 120_000);

  it.each([['1'], ['2']])('takes a mount point behind a proxy and says where it listens and where links point (--processes %s)', async (processes) => {
    const port = await freePort();
    const { proc, stderr } = await serve(['--port', String(port), '--processes', processes, '--public-url', 'https://example.se/bolag/']);
    try {
      // The address it is bound to, not the public one (with several processes it was the public one).
      expect(stderr()).toMatch(new RegExp(`^bolag serve: listening on http://127\\.0\\.0\\.1:${port}/api/public/v1 `, 'm'));
      expect(stderr()).toContain('bolag serve: links point to https://example.se/bolag/api/public/v1');
      expect(stderr()).toContain('bolag serve: API reference at https://example.se/bolag/docs');
      // The page names its assets under the mount, where the proxy passes them on (found by a
      // review, 2026-11-29: /docs/static/…, outside it); the proxy takes /bolag off.
      const page = await (await fetch(`http://127.0.0.1:${port}/docs`)).text();
      const assets = [...page.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]).filter((u) => u.startsWith('/'));
      expect(assets.length).toBeGreaterThan(3);
      for (const asset of assets) {
        expect(asset, asset).toMatch(/^\/bolag\/docs/);
        expect((await fetch(`http://127.0.0.1:${port}${asset.replace(/^\/bolag/, '')}`)).status, asset).toBe(200);
      }
    } finally {
      proc.kill('SIGTERM');
      await proc;
    }
  }, 60_000);

  it.each([['1'], ['2']])('on every interface without --public-url, warns that its links name its loopback (--processes %s)', async (processes) => {
    const port = await freePort();
    const bare = await serve(['--port', String(port), '--processes', processes, '--host', '0.0.0.0']);
    try {
      expect(bare.stderr()).toMatch(new RegExp(`^bolag serve: listening on http://127\\.0\\.0\\.1:${port}/api/public/v1 \\(every interface, 0\\.0\\.0\\.0, `, 'm'));
      expect(bare.stderr()).toContain(`bolag serve: warning: download links and webhook payloads will name http://127.0.0.1:${port}/api/public/v1, which other machines cannot reach; give --public-url`);
    } finally {
      bare.proc.kill('SIGTERM');
      await bare.proc;
    }
    // With --public-url, or on loopback only, no such warning.
    const port2 = await freePort();
    const named = await serve(['--port', String(port2), '--processes', processes, '--host', '0.0.0.0', '--public-url', 'https://example.se']);
    try {
      expect(named.stderr()).not.toContain('warning: download links');
    } finally {
      named.proc.kill('SIGTERM');
      await named.proc;
    }
  }, 90_000);

  it.each([
    ['example.se/bolag', 'is not an absolute URL'],
    ['ftp://example.se', 'is not an http or https URL'],
    ['https://example.se/bolag?x=1', 'has a query string'],
    ['https://example.se/bolag#docs', 'has a fragment'],
  ])('refuses %j at start: one line on stderr, exit 2', async (value, reason) => {
    const r = await execa('node', [BIN, 'serve', '--db', join(work, 'never.db'), '--public-url', value], { reject: false, extendEnv: false, env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--public-url');
    expect(lines[0]).toContain(reason);
  }, 30_000);
});
