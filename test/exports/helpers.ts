// A real server on a loopback port over a throwaway database (SQLite, or PostgreSQL under
// BOLAG_TEST_STORE=postgres: test/helpers/test-store.ts), and a small HTTP client for it.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueKey } from '../../src/server/api-keys.js';
import { startServer, type RunningServer, type StartOptions } from '../../src/server/start.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { testDatabase, type TestStoreKind } from '../helpers/test-store.js';
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
  kind: TestStoreKind;
  /** SQLite: where export files are kept (PostgreSQL keeps them in the database). */
  exportDir: string;
  server: RunningServer;
  url: string;
  /** Key of the local account (every scope). */
  key: string;
  start(extra?: Partial<StartOptions>): Promise<RunningServer>;
  stop(): Promise<void>;
  /** A second connection to the same database, for keys and for looking under the hood. */
  store(): Store;
  keyFor(account: string, scopes: Scope[]): Promise<string>;
  /** The export's files as the store holds them: finished parts, and unfinished ones (SQLite's `.tmp`). */
  storedFiles(exportId: string): Promise<{ finished: string[]; unfinished: string[] }>;
  /** Makes writing export files fail (a file where the folder should be; PostgreSQL: the chunk table gone) until undone. */
  breakExportStorage(): Promise<() => Promise<void>>;
  cleanup(): Promise<void>;
}

export async function startTestServer(opts: Partial<StartOptions> = {}, start: typeof startServer = startServer): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'bolag-exports-test-'));
  const db = testDatabase(dir);
  const exportDir = join(dir, 'exports');
  let side: Store | null = null;
  const base: StartOptions = { port: 0, ...db.location, exportDir, seedCount: 3000, exportPartRows: 500, rateLimit: { max: 0, windowMs: 60_000 }, ...opts };
  const t: TestServer = {
    dir,
    kind: db.kind,
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
      if (!side) throw new Error('the side store opens with the first start');
      return side;
    },
    async storedFiles(exportId) {
      if (db.kind === 'postgres') {
        const q = (t.store() as PgStore).db;
        const finished = (await q.query<{ part: string }>('SELECT part FROM export_parts WHERE export_id = $1 ORDER BY part', [exportId])).rows.map((r) => r.part);
        const unfinished = (
          await q.query<{ part: string }>(
            'SELECT DISTINCT part FROM export_chunks c WHERE export_id = $1 AND NOT EXISTS (SELECT 1 FROM export_parts p WHERE p.export_id = c.export_id AND p.part = c.part AND p.run = c.run) ORDER BY part',
            [exportId],
          )
        ).rows.map((r) => r.part);
        return { finished, unfinished };
      }
      const folder = join(exportDir, exportId);
      const names = existsSync(folder) ? readdirSync(folder).sort() : [];
      return { finished: names.filter((n) => !n.endsWith('.tmp')), unfinished: names.filter((n) => n.endsWith('.tmp')) };
    },
    async breakExportStorage() {
      if (db.kind === 'postgres') {
        const q = (t.store() as PgStore).db;
        await q.query('ALTER TABLE export_chunks RENAME TO export_chunks_broken');
        return async () => void (await q.query('ALTER TABLE export_chunks_broken RENAME TO export_chunks'));
      }
      const blocker = join(dir, 'not-a-folder');
      writeFileSync(blocker, 'x');
      await t.stop();
      await t.start({ exportDir: blocker });
      return async () => {
        await t.stop();
        await t.start();
      };
    },
    async keyFor(account, scopes) {
      return (await issueKey(t.store(), { account, plan: 'free', scopes })).key;
    },
    async cleanup() {
      await closeConnections();
      await t.server?.close();
      await side?.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await t.start();
  side = await openStore({ ...db.location, exportDir });
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
