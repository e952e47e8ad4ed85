// One small seeded register for every search test file. On SQLite it is built once per version
// of the code that shapes it (generator, reference data, schema) and shared read-only; on
// PostgreSQL (when DATABASE_URL is set) each file seeds the same register (same generator, same
// seed) into a fresh schema of its own, dropped when it closes. Each file starts its own server
// on it (port 0) and gets keys from a side connection.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Company } from '../../src/core/company.js';
import type { Plan, Scope } from '../../src/core/values.js';
import { seedRegister } from '../../src/app/seed-register.js';
import { issueKey } from '../../src/server/api-keys.js';
import { startServer, type RunningServer, type StartOptions } from '../../src/server/start.js';
import { readColumns } from '../../src/store/postgres/company-row.js';
import { openPgStore, type PgStore } from '../../src/store/postgres/pg-store.js';
import { type CompanyRow, companySelectList, rowToCompany } from '../../src/store/sqlite/company-row.js';
import { tune } from '../../src/store/sqlite/search/tuning.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DATABASE_URL, dropSchema, freshSchemaUrl } from './pg.js';

export const SEARCH_SEED_COUNT = 4000;
const ROOT = new URL('../../', import.meta.url).pathname;
const SHAPING = ['src/seed', 'src/reference', 'src/store/sqlite/migrations.ts', 'src/store/sqlite/company-row.ts', 'src/store/sqlite/company-writer.ts', 'src/store/sqlite/seeder.ts', 'src/store/sqlite/stats', 'src/store/sqlite/bulk'];

function fingerprint(): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    if (statSync(path).isDirectory()) for (const f of readdirSync(path).sort()) add(join(path, f));
    else hash.update(path).update(readFileSync(path));
  };
  for (const p of SHAPING) add(join(ROOT, p));
  return hash.digest('hex').slice(0, 16);
}

/** The path of the shared register, seeding it first if no test file has yet. */
export async function sharedRegister(): Promise<string> {
  const dir = join(tmpdir(), 'bolag-search-tests');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `register-${SEARCH_SEED_COUNT}-${fingerprint()}.db`);
  if (existsSync(path)) return path;
  const lock = `${path}.lock`;
  let mine = false;
  try {
    mkdirSync(lock);
    mine = true;
  } catch {
    // Another test file is seeding it: wait for the file to appear (or the lock to go stale).
  }
  if (mine) {
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      const store = openSqliteStore(tmp);
      await seedRegister(store, { count: SEARCH_SEED_COUNT, seed: 'search-tests' });
      store.db.pragma('journal_mode = DELETE');
      await store.close();
      renameSync(tmp, path);
    } finally {
      rmSync(lock, { recursive: true, force: true });
      for (const s of ['', '-wal', '-shm']) rmSync(tmp + s, { force: true });
    }
    return path;
  }
  const deadline = Date.now() + 120_000;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${path}`);
    if (!existsSync(lock)) return sharedRegister();
    await new Promise((r) => setTimeout(r, 100));
  }
  return path;
}

export type StoreKind = 'sqlite' | 'postgres';

export interface SearchServer<S extends SqliteStore | PgStore = SqliteStore | PgStore> {
  kind: StoreKind;
  url: string;
  /** A key with every scope. */
  key: string;
  server: RunningServer;
  store: S;
  keyFor(scopes: Scope[], account?: string, plan?: Plan): Promise<string>;
  /** Every company of the register, read straight from the table (no search code involved). */
  all(): Company[];
  close(): Promise<void>;
}

let accountCounter = 0;

export async function startSearchServer(opts: Partial<StartOptions> = {}): Promise<SearchServer<SqliteStore>> {
  const dbPath = await sharedRegister();
  const server = await startServer({ port: 0, dbPath, workers: false, rateLimit: { max: 0, windowMs: 60_000 }, ...opts });
  const store = openSqliteStore(dbPath);
  let everything: Company[] | null = null;
  return {
    kind: 'sqlite',
    ...(await withKeys(store)),
    url: server.url,
    server,
    store,
    all() {
      everything ??= (store.db.prepare(`SELECT ${companySelectList('c', true)} FROM companies c ORDER BY c.rowid`).all() as CompanyRow[]).map((r) =>
        rowToCompany(r, { expand: true }),
      );
      return everything;
    },
    async close() {
      await server.close();
      await store.close();
    },
  };
}

/** The same register in a fresh PostgreSQL schema (dropped by close), and a server on it. */
export async function startPgSearchServer(opts: Partial<StartOptions> = {}): Promise<SearchServer<PgStore>> {
  const { url, schema } = freshSchemaUrl();
  const store = await openPgStore(url);
  try {
    await seedRegister(store, { count: SEARCH_SEED_COUNT, seed: 'search-tests' });
    const server = await startServer({ port: 0, databaseUrl: url, workers: false, rateLimit: { max: 0, windowMs: 60_000 }, ...opts });
    const everything = (await store.db.query<CompanyRow>(`SELECT ${readColumns(true)} FROM companies c ORDER BY c.rowid`)).rows.map((r) =>
      rowToCompany(r, { expand: true }),
    );
    return {
      kind: 'postgres',
      ...(await withKeys(store)),
      url: server.url,
      server,
      store,
      all: () => everything,
      async close() {
        await server.close();
        await store.close();
        await dropSchema(schema);
      },
    };
  } catch (e) {
    await store.close();
    await dropSchema(schema);
    throw e;
  }
}

async function withKeys(store: SqliteStore | PgStore): Promise<Pick<SearchServer, 'key' | 'keyFor'>> {
  const keyFor = async (scopes: Scope[], account = `search-tests-${process.pid}-${++accountCounter}`, plan: Plan = 'free') =>
    (await issueKey(store, { account, plan, scopes })).key;
  return { key: await keyFor(['companies:read', 'exports:create', 'exports:read', 'webhooks:manage']), keyFor };
}

/**
 * Runs a file's search tests once per store: SQLite always, PostgreSQL when DATABASE_URL is set
 * (else a skipped test says how to run them). `body` gets the store's name and its starter.
 */
export function forEachStore(body: (start: () => Promise<SearchServer>, kind: StoreKind) => void): void {
  describe('SQLite', () => body(startSearchServer, 'sqlite'));
  if (DATABASE_URL) describe('PostgreSQL', () => body(startPgSearchServer, 'postgres'));
  else describe('PostgreSQL', () => it.skip('skipped: set DATABASE_URL=postgres://… to run the search tests against PostgreSQL too', () => {}));
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function get<T = any>(s: Pick<SearchServer, 'url'>, path: string, key: string | null, headers: Record<string, string> = {}): Promise<Reply<T>> {
  const res = await fetch(`${s.url}${path}`, { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** GET /companies with these parameters; throws unless 200. */
export async function search(s: SearchServer, params: Record<string, string>, key = s.key): Promise<any> {
  const r = await get(s, `/companies?${new URLSearchParams(params)}`, key);
  if (r.status !== 200) throw new Error(`GET /companies?${new URLSearchParams(params)}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Every page of a search, following next_cursor; also checks each page's shape. */
export async function searchAll(s: SearchServer, params: Record<string, string>, limit = 100): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10_000; pages++) {
    const body = await search(s, { ...params, limit: String(limit), ...(cursor ? { cursor } : {}) });
    out.push(...body.data);
    if (body.pagination.has_more !== (body.pagination.next_cursor !== undefined)) throw new Error('has_more and next_cursor disagree');
    if (!body.pagination.has_more) return out;
    if (body.data.length !== limit) throw new Error(`a page before the last had ${body.data.length} rows, not ${limit}`);
    cursor = body.pagination.next_cursor;
  }
  throw new Error('more than 10,000 pages');
}

/** The SQLite planner's thresholds scaled to the shared register, so that every path it has (walk, collect, slices) is taken on it. */
export const SMALL_REGISTER_TUNING = { estimateCap: 300, smallDriver: 30, countInOneStatement: 200, countSlices: 16 };

/** For a suite: a SQLite search server on the shared register with those thresholds, from its beforeAll to its afterAll. */
export function tunedSqliteSearch(): { server(): SearchServer<SqliteStore>; all(): Company[] } {
  let s: SearchServer<SqliteStore> | undefined;
  let all: Company[] = [];
  let restore: (() => void) | undefined;
  beforeAll(async () => {
    restore = tune(SMALL_REGISTER_TUNING);
    s = await startSearchServer();
    all = s.all();
  });
  afterAll(async () => {
    restore?.();
    await s?.close();
  });
  return { server: () => s!, all: () => all };
}
