// A real server on a loopback port over a throwaway database, and a small HTTP client for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueKey } from '../../src/server/api-keys.js';
import { startServer, type RunningServer, type StartOptions } from '../../src/server/start.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Scope } from '../../src/core/values.js';
import { Agent, fetch as undiciFetch, type RequestInit } from 'undici';

// The tests' own connection pool: closed before a server stops, so that no keep-alive
// connection whose last response ended just as the stop began holds the server open.
let agent = new Agent();

/** fetch over the tests' pool. */
export function http(url: string, init: RequestInit = {}) {
  return undiciFetch(url, { ...init, dispatcher: agent });
}

async function closeConnections(): Promise<void> {
  const old = agent;
  agent = new Agent();
  await old.close();
}

export interface TestServer {
  dir: string;
  dbPath: string;
  exportDir: string;
  server: RunningServer;
  url: string;
  /** Key of the local account (every scope). */
  key: string;
  start(extra?: Partial<StartOptions>): Promise<RunningServer>;
  stop(): Promise<void>;
  /** A second connection to the same database, for keys and for looking under the hood. */
  store(): SqliteStore;
  keyFor(account: string, scopes: Scope[]): Promise<string>;
  cleanup(): Promise<void>;
}

export async function startTestServer(opts: Partial<StartOptions> = {}, start: typeof startServer = startServer): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'bolag-exports-test-'));
  const dbPath = join(dir, 'register.db');
  const exportDir = join(dir, 'exports');
  let side: SqliteStore | null = null;
  const base: StartOptions = { port: 0, dbPath, seedCount: 3000, exportPartRows: 500, rateLimit: { max: 0, windowMs: 60_000 }, ...opts };
  const t: TestServer = {
    dir,
    dbPath,
    exportDir,
    server: undefined as unknown as RunningServer,
    url: '',
    key: '',
    async start(extra = {}) {
      t.server = await start({ ...base, ...extra });
      t.url = t.server.url;
      if (t.server.apiKey) t.key = t.server.apiKey;
      return t.server;
    },
    async stop() {
      await closeConnections();
      await t.server.close();
    },
    store() {
      side ??= openSqliteStore(dbPath);
      return side;
    },
    async keyFor(account, scopes) {
      return (await issueKey(t.store(), { account, plan: 'free', scopes })).key;
    },
    async cleanup() {
      await closeConnections();
      await t.server?.close();
      await side?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await t.start();
  return t;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function api<T = any>(
  t: Pick<TestServer, 'url'>,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply<T>> {
  const res = await http(`${t.url}${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** Polls GET /exports/{id} until the export is completed or failed. */
export async function waitForExport(t: Pick<TestServer, 'url'>, key: string, id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await api(t, key, 'GET', `/exports/${id}`);
    if (r.status !== 200) throw new Error(`GET /exports/${id}: ${r.status} ${JSON.stringify(r.body)}`);
    if (r.body.data.status === 'completed' || r.body.data.status === 'failed') return r.body.data;
    if (Date.now() > deadline) throw new Error(`export ${id} still ${r.body.data.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function download(url: string, headers: Record<string, string> = {}) {
  const res = await http(url, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Every company of a search, following the cursor (GET /companies with the same filters). */
export async function searchAll(t: Pick<TestServer, 'url'>, key: string, filters: Record<string, string>) {
  const out: any[] = [];
  let cursor: string | undefined;
  do {
    const qs = new URLSearchParams({ ...filters, limit: '100', ...(cursor ? { cursor } : {}) });
    const r = await api(t, key, 'GET', `/companies?${qs}`);
    if (r.status !== 200) throw new Error(`search: ${r.status} ${JSON.stringify(r.body)}`);
    out.push(...r.body.data);
    cursor = r.body.pagination.next_cursor;
  } while (cursor);
  return out;
}
