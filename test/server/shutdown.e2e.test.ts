// SIGTERM on the real binary (`bolag serve`): it stops accepting, closes idle keep-alive
// connections at once, lets a download in flight finish (and then closes that connection too
// instead of waiting for its keep-alive), and exits 0; a second SIGTERM ends it at once.
import { execa, type ResultPromise } from 'execa';
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/start.js';
import { ensureBuilt, ROOT } from '../exports/built.js';
import { cleanEnv } from '../cli/helpers.js';
import { api, waitForExport } from '../exports/helpers.js';

let dir: string;
let key: string;
let child: ResultPromise | undefined;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'bolag-shutdown-'));
  // Seeded once, in-process; each test serves it with the binary.
  const s = await startServer({ port: 0, dbPath: join(dir, 'register.db'), seedCount: 20_000, workers: false });
  key = s.apiKey!;
  await s.close();
}, 180_000);
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(processes = 1): Promise<{ url: string; port: number; exited: Promise<{ exitCode?: number; signal?: string; stderr: string }> }> {
  let stderr = '';
  // One process (the default is one per core): what is proved here is how a server process stops.
  child = execa('node', [join(ROOT, 'bin/bolag.js'), 'serve', '--port', '0', '--processes', String(processes), '--db', join(dir, 'register.db')], {
    reject: false,
    buffer: false,
    extendEnv: false,
    env: cleanEnv({ BOLAG_HOME: join(dir, 'home') }),
  });
  const proc = child;
  const url = await new Promise<string>((resolve, reject) => {
    proc.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /listening on (\S+)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    proc.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
  });
  const exited = proc.then((r) => ({ exitCode: r.exitCode, signal: r.signal, stderr }));
  return { url, port: Number(new URL(url).port), exited };
}

/** A big file, so that a reader who stops reading leaves the server's response in flight. */
async function bigFileUrl(url: string): Promise<string> {
  const created = await api({ url }, key, 'POST', '/exports', { format: 'jsonl', filters: { status: 'all', exclude_advertising_blocked: false } });
  const e = await waitForExport({ url }, key, created.body.data.id, 60_000);
  expect(e.files).toHaveLength(1);
  expect(e.files[0].bytes).toBeGreaterThan(8_000_000);
  return e.files[0].url;
}

/** GET over a raw keep-alive socket that is not read until `resume` is called. */
function stalledDownload(port: number, fileUrl: string) {
  const socket = net.connect(port, '127.0.0.1');
  const u = new URL(fileUrl);
  socket.write(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
  socket.pause();
  let bytes = 0;
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  return {
    closed,
    resume() {
      socket.on('data', (c: Buffer) => (bytes += c.length));
      socket.resume();
    },
    get bytes() {
      return bytes;
    },
    destroy: () => socket.destroy(),
  };
}

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);

describe('bolag serve on SIGTERM', () => {
  it('closes idle keep-alive connections at once, finishes a download in flight, refuses new connections, exits 0', async () => {
    const t00 = Date.now();
    const s = await serve();
    if (process.env.SHUTDOWN_DEBUG) console.log('served', Date.now() - t00);
    const file = await bigFileUrl(s.url);
    if (process.env.SHUTDOWN_DEBUG) console.log('exported', Date.now() - t00);
    // An idle keep-alive connection: a search answered, the socket kept by the agent.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let status = 0;
    const { idleClosed } = await new Promise<{ idleClosed: Promise<void> }>((resolve, reject) => {
      const req = http.get(`${s.url}/companies?limit=1`, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
        status = res.statusCode ?? 0;
        res.resume();
        res.on('end', () => resolve({ idleClosed: closed }));
      });
      let closed: Promise<void>;
      req.on('socket', (socket) => (closed = new Promise<void>((done) => socket.once('close', () => done()))));
      req.on('error', reject);
    });
    if (process.env.SHUTDOWN_DEBUG) console.log('searched', status, Date.now() - t00);
    expect(status).toBe(200);
    const download = stalledDownload(s.port, file);
    await new Promise((r) => setTimeout(r, 300));

    const t0 = Date.now();
    const log = (what: string) => process.env.SHUTDOWN_DEBUG && console.log(Date.now() - t0, what);
    child!.kill('SIGTERM');
    log('sigterm');
    await within(idleClosed, 3000, 'the idle keep-alive connection closed');
    log('idle closed');
    const connect = () =>
      new Promise<string>((resolve) => {
        const socket = net.connect(s.port, '127.0.0.1');
        socket.on('connect', () => (socket.destroy(), resolve('connected'))).on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
    // Refused from then on. A full run under load once saw one connect still accepted just after
    // the idle close; a few tries within a second keep the assertion without that race.
    let answer = await connect();
    for (let i = 0; i < 10 && answer !== 'ECONNREFUSED'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      answer = await connect();
    }
    expect(answer).toBe('ECONNREFUSED');
    // The download is still being served ...
    expect(child!.exitCode).toBeNull();
    download.resume();
    // ... to its last byte; then its keep-alive connection is closed and the process exits,
    // well before the 10 s grace (or the 72 s keep-alive) would have ended it.
    await within(download.closed, 8000, 'the download connection closed');
    const head = 400; // status line and headers, roughly
    expect(download.bytes).toBeGreaterThan(8_000_000 + head);
    const exit = await within(s.exited, 8000, 'the process exited');
    expect(exit).toMatchObject({ exitCode: 0 });
    expect(exit.stderr).toContain('shutting down');
    agent.destroy();
  }, 120_000);

  it('ends at once on a second SIGTERM, however busy', async () => {
    const s = await serve();
    const file = await bigFileUrl(s.url);
    const download = stalledDownload(s.port, file);
    await new Promise((r) => setTimeout(r, 300));
    child!.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    expect(child!.exitCode).toBeNull(); // waiting for the download, within its grace
    child!.kill('SIGTERM');
    const exit = await within(s.exited, 2000, 'the process ended after the second SIGTERM');
    expect(exit.signal ?? exit.exitCode).toBeTruthy();
    download.destroy();
  }, 120_000);

  it('ends at once on a second SIGTERM with several processes too (found by a review, 2026-11-29: it waited out the grace)', async () => {
    const s = await serve(2);
    const file = await bigFileUrl(s.url);
    const download = stalledDownload(s.port, file);
    await new Promise((r) => setTimeout(r, 300));
    child!.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    expect(child!.exitCode).toBeNull();
    child!.kill('SIGTERM');
    const exit = await within(s.exited, 2000, 'the cluster ended after the second SIGTERM');
    expect(exit.exitCode).toBe(143);
    expect(exit.stderr).toContain('shutting down');
    download.destroy();
  }, 120_000);

  it.each([1, 2])('stops gracefully on SIGHUP (a closed terminal), --processes %i (found by a review, 2026-11-29: killed at once)', async (processes) => {
    const s = await serve(processes);
    child!.kill('SIGHUP');
    const exit = await within(s.exited, 8000, 'the process exited');
    expect(exit).toMatchObject({ exitCode: 0 });
    expect(exit.stderr).toContain('shutting down');
  }, 120_000);
});
