// Shared by the webhook tests: a real server on port 0 over a temp database (SQLite, or
// PostgreSQL under BOLAG_TEST_STORE=postgres: test/helpers/test-store.ts), a recording
// receiver on 127.0.0.1, and small HTTP helpers.
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueKey } from '../../src/server/api-keys.js';
import { startServer, type StartOptions } from '../../src/server/start.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import type { Scope } from '../../src/core/values.js';
import { testDatabase } from '../helpers/test-store.js';

export interface TestServer {
  url: string;
  apiKey: string;
  dir: string;
  /** A second connection to the same database, for appending outbox events and peeking. */
  store: Store;
  close(): Promise<void>;
  restart(extra?: Partial<StartOptions>): Promise<void>;
}

export async function startTestServer(opts: Partial<StartOptions> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'bolag-wh-'));
  const db = testDatabase(dir, 'bolag.db');
  const base: StartOptions = { port: 0, ...db.location, seedCount: 500, rateLimit: { max: 0, windowMs: 60_000 }, ...opts };
  let running = await startServer(base);
  const store = await openStore(db.location);
  const t: TestServer = {
    url: running.url,
    apiKey: running.apiKey as string,
    dir,
    store,
    async close() {
      await running.close();
      await store.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    },
    async restart(extra = {}) {
      await running.close();
      running = await startServer({ ...base, ...extra });
      t.url = running.url;
    },
  };
  return t;
}

export async function newKey(store: Store, account: string, plan: 'pro' | 'free' = 'pro', scopes: Scope[] = ['webhooks:manage', 'companies:read']) {
  return (await issueKey(store, { account, plan, scopes })).key;
}

export interface ApiResponse {
  status: number;
  body: any;
}

export async function call(base: string, key: string, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Decides the status of each request; 200 by default. */
  respond: (r: Received, index: number) => number;
  /** How long to wait before answering each request (0 by default). */
  delayMs: () => number;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const rec: Receiver = {
    url: '',
    port: 0,
    received: [],
    respond: () => 200,
    delayMs: () => 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() };
      const index = rec.received.length;
      rec.received.push(r);
      res.statusCode = rec.respond(r, index);
      const delay = rec.delayMs();
      if (delay > 0) setTimeout(() => res.end('ok'), delay);
      else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  rec.port = (server.address() as AddressInfo).port;
  rec.url = `http://127.0.0.1:${rec.port}`;
  return rec;
}

export async function waitFor<T>(fn: () => T | Promise<T>, opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? 'condition'}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 25));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A receiver that answers nothing until closed (the slowest endpoint there is), counting the requests it holds at once. */
export async function startStallingReceiver() {
  const held: http.ServerResponse[] = [];
  let open = 0;
  let mostOpen = 0;
  const server = http.createServer((req, res) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    res.on('close', () => open--);
    req.resume();
    held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get received() {
      return held.length;
    },
    get mostOpen() {
      return mostOpen;
    },
    async close() {
      for (const res of held) if (!res.writableEnded) res.end('ok');
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The fairness tests' rig: a server that retries an hour later, a recording receiver and a stalling one. */
export interface StallingRig {
  s: TestServer;
  fast: Receiver;
  slow: Awaited<ReturnType<typeof startStallingReceiver>>;
  close(): Promise<void>;
}

export async function startStallingRig(): Promise<StallingRig> {
  const s = await startTestServer({ allowInsecureWebhooks: true, webhookRetryScheduleSeconds: [3600] });
  const fast = await startReceiver();
  const slow = await startStallingReceiver();
  return {
    s,
    fast,
    slow,
    async close() {
      await slow.close();
      await fast.close();
      await s.close();
    },
  };
}
