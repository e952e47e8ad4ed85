// npm run bench -- search [--db PATH | --database-url URL] [--count N] [--duration S] [--connections 1,4] [--only a,b] [--no-http] [--no-processes]
//
// GET /companies on the 1.2-million register: query classes (plain filters, q alone and with
// filters, near with 10 km and 500 km sorted by distance, revenue sorts with filters, a page
// 1,000 deep, fields and expand, include_total on broad filters, …), each run over HTTP by
// autocannon against a server in a child process, beside the same queries run in-process
// against the store alone (the floor). Reports p50, p99 and requests/s per class.
// Goal: p50 < 5 ms and p99 < 50 ms for every class but include_total, which stays < 1.1 s.
// Issue 13's shapes (classes i-*, values found in the register: bench/issue-shapes.ts, SQLite;
// and issue-13*, found through the Store interface: bench/lib/shapes.ts, both stores) have the
// goal p99 ≤ 10 ms at 1 connection and ≤ 25 ms at 4 (include_total ≤ 150 ms); each class is run at
// every --connections count (default 1 and 4), then `bolag serve --processes` 1 against 2
// (bench/search-processes.ts).
// The register is $BOLAG_BENCH_DB, else /tmp/bolag-bench/register.db (made here once when missing,
// then reused), or with --database-url (or DATABASE_URL) the same register in PostgreSQL, schema bench_pg.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEARCH_QUERY_SCHEMA, toSearchQuery } from '../src/core/search-params.js';
import { seedRegister } from '../src/app/seed-register.js';
import { issueKey } from '../src/server/api-keys.js';
import { startServer } from '../src/server/start.js';
import { openStore } from '../src/store/open-store.js';
import { planSearch } from '../src/store/sqlite/company-search.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { KeysetPosition, Store } from '../src/store/store.js';
import { issueClasses } from './issue-shapes.js';
import { benchDatabaseUrl } from './lib/pg-url.js';
import { discoverShapes } from './lib/shapes.js';
import { compareProcesses, type ProcessesRun } from './search-processes.js';

const DEFAULT_DB = process.env.BOLAG_BENCH_DB ?? '/tmp/bolag-bench/register.db';
const GOAL = { p50: 5, p99: 50, totalP99: 1100 };
/** Issue 13: p99 per connection count; include_total on one broad filter. */
const ISSUE_GOAL = { p99: { 1: 10, 4: 25 } as Record<number, number>, totalP99: 150, processesRatio: 1.4 };

interface Args {
  db: string;
  /** PostgreSQL instead of the SQLite file. */
  url: string | null;
  count: number;
  duration: number;
  connections: number[];
  only: string[] | null;
  http: boolean;
  processes: boolean;
}

function parseArgs(all: string[]): Args {
  const { url, rest: args } = benchDatabaseUrl(all);
  const a: Args = { db: DEFAULT_DB, url, count: 1_200_000, duration: 5, connections: [1, 4], only: null, http: true, processes: true };
  for (let i = 0; i < args.length; i++) {
    const v = args[i];
    if (v === '--db') a.db = args[++i];
    else if (v === '--count') a.count = Number(args[++i]);
    else if (v === '--duration') a.duration = Number(args[++i]);
    else if (v === '--connections') a.connections = args[++i].split(',').map(Number);
    else if (v === '--only') a.only = args[++i].split(',');
    else if (v === '--no-http') a.http = false;
    else if (v === '--no-processes') a.processes = false;
    else throw new Error(`unknown argument ${v}`);
  }
  return a;
}

/** One kind of request: several concrete queries, cycled. */
interface QueryClass {
  name: string;
  what: string;
  /** Paths under the API prefix, each with its query string. */
  paths: string[];
  /** In-process: the same request against the store alone. */
  floor: (() => Promise<unknown>)[];
  total?: boolean;
}

// --- The classes -----------------------------------------------------------------------------

const CITIES = {
  stockholm: '59.3293,18.0686',
  goteborg: '57.7089,11.9746',
  malmo: '55.6050,13.0038',
  umea: '63.8258,20.2630',
  kiruna: '67.8558,20.2253',
  visby: '57.6348,18.2948',
};

async function sampleCompanies(store: Store): Promise<{ id: string; org_nr: string }[]> {
  const sql = 'SELECT id, org_nr FROM companies WHERE rowid % 99991 = 7 ORDER BY rowid LIMIT 12';
  if (store instanceof SqliteStore) return store.db.prepare(sql).all() as { id: string; org_nr: string }[];
  return (await (store as unknown as { db: { query(s: string): Promise<{ rows: { id: string; org_nr: string }[] }> } }).db.query(sql)).rows;
}

export async function searchClasses(store: Store, deep: Map<string, { position: KeysetPosition; cursor?: string }>): Promise<QueryClass[]> {
  const sample = await sampleCompanies(store);
  const shapes = await discoverShapes(store);
  const orgs = sample.map((r) => `${r.org_nr.slice(0, 6)}-${r.org_nr.slice(6)}`);
  const near = (r: number, extra = '') => Object.values(CITIES).map((c) => `near=${c}&radius_km=${r}${extra}`);
  const classes: [string, string, string[], boolean?][] = [
    ['filters', 'plain filters, sorted by name', [
      'county=01&legal_form=aktiebolag', 'county=14&f_skatt=true', 'municipality=1480&employees_class=1-4', 'category=bygg&county=12',
      'legal_form=handelsbolag&registered_from=2015-01-01', 'status=konkurs', 'website_status=har_hemsida&county=03', 'city=uppsala', 'postal_code=41', 'sni=62',
    ]],
    ['numeric', 'numeric, boolean and date filters', [
      'revenue_min=1000000&revenue_max=5000000&county=01', 'profit_min=100000&equity_ratio_min=0.5', 'revenue_growth_min=0.2&has_financials=true',
      'registered_from=2020-01-01&registered_to=2020-12-31', 'employees_class=10-19,20-49&vat_registered=true', 'verified=true&employer_registered=true',
      'exclude_advertising_blocked=true&trend=växande',
    ]],
    ['q', 'q alone (names, trades, suffixes; ranked)', [
      'q=andersson', 'q=norden', 'q=bygg', 'q=frisör', 'q=konsult', 'q=el', 'q=ab', 'q=svensson bygg', 'q=norden ab', 'q=elinstallation', 'q=fastighet', 'q=anna',
    ].map(encodeQ)],
    ['q-orgnr', 'q as an org nr, with and without hyphen, and a prefix', orgs.flatMap((o) => [`q=${o}`, `q=${o.replace('-', '')}`, `q=${o.slice(0, 5)}`])],
    ['q-filters', 'q with filters', [
      'q=bygg&county=01', 'q=frisör&municipality=1480', 'q=konsult&revenue_min=1000000', 'q=andersson&legal_form=aktiebolag', 'q=el&near=59.3293,18.0686&radius_km=20',
      'q=ab&county=14&sort=-revenue', 'q=fastighet&category=fastigheter', 'q=norden&f_skatt=true',
    ].map(encodeQ)],
    ['near-10km', 'near, 10 km, sorted by name', near(10)],
    ['near-10km-dist', 'near, 10 km, sorted by distance', near(10, '&sort=distance')],
    ['near-500km-dist', 'near, 500 km, sorted by distance', near(500, '&sort=distance')],
    ['revenue-desc', 'sort=-revenue with filters', [
      'sort=-revenue&county=01&legal_form=aktiebolag', 'sort=-revenue&category=bygg', 'sort=-revenue&municipality=1480&f_skatt=true', 'sort=-revenue',
      'sort=-revenue&county=12&revenue_max=10000000', 'sort=-revenue&legal_form=ekonomisk_forening',
    ]],
    ['other-sorts', 'other sorts, both directions', [
      'sort=profit', 'sort=-registration_date&county=12', 'sort=equity_ratio&has_financials=true', 'sort=-employees_class&county=01', 'sort=revenue_growth&legal_form=aktiebolag', 'sort=-name', 'sort=employees_class',
    ]],
    ['deep-cursor', 'page 1,000 (rows 24,976-25,000) of several orders', [...deep.keys()]],
    ['fields-expand', 'fields and expand=latest_financials', [
      'fields=name,org_nr,revenue&expand=latest_financials&has_financials=true', 'fields=name,address&county=01', 'expand=latest_financials&sort=-revenue&limit=100', 'limit=100&fields=id,name',
    ]],
    ['company', 'GET /companies/{id} by id and by org nr', sample.flatMap((r) => [`/companies/${r.id}`, `/companies/${r.org_nr}`])],
    ['hard', 'shapes against the grain (no index, anti-correlated, disjoint)', [
      'sni=62&postal_code=11', 'verified=true&website_status=okand&trend=minskande', 'sort=-revenue&category=bygg&employees_class=10-19', 'legal_form=bostadsrattsforening&f_skatt=true', 'county=01&municipality=2580',
    ]],
    ['issue-13', 'the shapes of issue 13, values found in the register', shapes.paths],
    ['issue-13-total', 'include_total on the broadest legal form', [shapes.total], true],
    ['include-total', 'include_total=true on broad filters', [
      'include_total=true', 'include_total=true&county=01', 'include_total=true&has_financials=true', 'include_total=true&legal_form=aktiebolag&f_skatt=true',
      'include_total=true&q=ab', 'include_total=true&near=59.3293,18.0686&radius_km=500', 'include_total=true&status=all&trend=stabil',
    ], true],
  ];
  return classes.map(([name, what, raw, total]) => {
    const items = raw.map((p) => (p.startsWith('/') || deep.has(p) ? p : encodeQ(p)));
    const paths = items.map((p) => (p.startsWith('/') ? p : `/companies?${deep.get(p)?.cursor !== undefined ? `${p}&cursor=${encodeURIComponent(deep.get(p)!.cursor!)}` : p}`));
    const floor = items.map((p) => floorCall(store, p, deep.get(p)?.position ?? null));
    return { name, what, paths, floor, total };
  });
}

/** Values percent-encoded, as a client sends them (q and names carry spaces and å, ä, ö). */
function encodeQ(p: string): string {
  return new URLSearchParams(Object.fromEntries(new URLSearchParams(p))).toString();
}

function floorCall(store: Store, p: string, after: KeysetPosition | null): () => Promise<unknown> {
  if (p.startsWith('/companies/')) {
    const id = p.slice('/companies/'.length);
    return () => store.companies.get(id);
  }
  const query = toSearchQuery(SEARCH_QUERY_SCHEMA.parse(Object.fromEntries(new URLSearchParams(p))));
  return async () => {
    const page = await store.companies.search(query, after);
    if (query.include_total) await store.companies.count(query.filters, 1000);
    return page;
  };
}

/** The position of row 25,000 (page 1,000 of 25) of each deep query, found by paging. */
export async function deepPositions(store: Store): Promise<Map<string, { position: KeysetPosition; cursor?: string }>> {
  const out = new Map<string, { position: KeysetPosition; cursor?: string }>();
  for (const p of ['status=aktiv', 'sort=-revenue', 'q=ab', 'near=59.3293,18.0686&radius_km=500&sort=distance', 'county=01&sort=registration_date']) {
    const query = toSearchQuery(SEARCH_QUERY_SCHEMA.parse(Object.fromEntries(new URLSearchParams(`${p}&limit=100`))));
    let after: KeysetPosition | null = null;
    for (let i = 0; i < 249; i++) after = (await store.companies.search(query, after)).next;
    // 249 pages of 100 end at row 24,900; three of 25 more reach 24,975: the next page is 1,000.
    const q25 = { ...query, limit: 25 };
    for (let i = 0; i < 3; i++) after = (await store.companies.search(q25, after)).next;
    out.set(p, { position: after! });
  }
  return out;
}

// --- Measuring -------------------------------------------------------------------------------

interface Stats {
  p50: number;
  p99: number;
  rps: number;
  n: number;
  errors?: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measureFloor(c: QueryClass, seconds: number): Promise<Stats> {
  for (const f of c.floor) await f(); // warm: statements, estimates
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  for (let i = 0; performance.now() < end || times.length < 2 * c.floor.length; i++) {
    const t0 = performance.now();
    await c.floor[i % c.floor.length]();
    times.push(performance.now() - t0);
  }
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), rps: times.length / elapsed, n: times.length };
}

interface Autocannon {
  (opts: Record<string, unknown>): Promise<{
    latency: { p50: number; p99: number };
    requests: { average: number };
    non2xx: number;
    errors: number;
    timeouts: number;
    requests_total?: number;
    '2xx': number;
  }>;
}

async function measureHttp(base: string, key: string, c: QueryClass, seconds: number, connections: number): Promise<Stats> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const url = new URL(base);
  const prefix = url.pathname.replace(/\/$/, '');
  const requests = c.paths.map((path) => ({ method: 'GET', path: `${prefix}${path}` }));
  const opts = { url: url.origin, connections, headers: { authorization: `Bearer ${key}` }, requests };
  await autocannon({ ...opts, amount: Math.max(requests.length * 2, 10) }); // warm
  const r = await autocannon({ ...opts, duration: seconds });
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, n: r['2xx'], errors: r.non2xx + r.errors + r.timeouts };
}

// --- The server, in a child process ----------------------------------------------------------

interface Ready {
  url: string;
  key: string;
}

async function startChild(location: { dbPath?: string; databaseUrl?: string }): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, BOLAG_BENCH_SEARCH_SERVER: JSON.stringify(location) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { child, ready };
}

async function serveForBench(cfg: { dbPath?: string; databaseUrl?: string }): Promise<void> {
  // The limiter stays on (its cost is part of every request) with a ceiling the bench never reaches.
  const server = await startServer({ port: 0, ...cfg, workers: false, rateLimit: { max: 1e9, windowMs: 60_000 } });
  const side = await openStore(cfg);
  const { key } = await issueKey(side, { account: 'bench-search', plan: 'pro', scopes: ['companies:read'] });
  await side.close();
  process.send!({ url: server.url, key } satisfies Ready);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

// --- Main ------------------------------------------------------------------------------------

async function ensureRegister(a: Args): Promise<{ seededSeconds?: number }> {
  if (a.url) {
    const pg = await openStore({ databaseUrl: a.url });
    const empty = (await pg.companies.lastRow()) === 0;
    await pg.close();
    if (!empty) return {};
  } else if (existsSync(a.db)) return {};
  mkdirSync(dirname(a.db), { recursive: true });
  console.log(`search: seeding ${a.count.toLocaleString('en')} companies into ${a.url ? 'PostgreSQL' : a.db} (once; later runs reuse it)…`);
  const store = await openStore(a.url ? { databaseUrl: a.url } : { dbPath: a.db });
  const t0 = performance.now();
  await seedRegister(store, { count: a.count });
  const seconds = (performance.now() - t0) / 1000;
  await store.close();
  console.log(`search: seeded in ${seconds.toFixed(1)} s`);
  return { seededSeconds: seconds };
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

export async function run(args: string[] = []): Promise<void> {
  const a = parseArgs(args);
  const seeded = await ensureRegister(a);
  const store = await openStore(a.url ? { databaseUrl: a.url } : { dbPath: a.db });
  const rows = (await store.companies.lastRow()).toLocaleString('en');
  const where = a.url ? 'PostgreSQL (bench_pg)' : `${a.db} (${(statSync(a.db).size / 1e9).toFixed(2)} GB)`;
  console.log(`search: ${rows} companies in ${where}, ${cpus().length} cores, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);

  const deep = await deepPositions(store);
  let server: { child: ChildProcess; ready: Ready } | null = null;
  if (a.http) {
    server = await startChild(a.url ? { databaseUrl: a.url } : { dbPath: a.db });
    // Cursors for page 1,000, fetched through the API itself.
    for (const [p, d] of deep) {
      let cursor: string | undefined;
      const get = async (limit: number) => {
        const res = await fetch(`${server!.ready.url}/companies?${p}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${server!.ready.key}` } });
        const body = (await res.json()) as { pagination: { next_cursor?: string } };
        cursor = body.pagination.next_cursor;
      };
      for (let i = 0; i < 249; i++) await get(100);
      for (let i = 0; i < 3; i++) await get(25);
      d.cursor = cursor;
    }
  }

  const sqliteOnly = store instanceof SqliteStore ? issueQueryClasses(store) : [];
  const classes = [...(await searchClasses(store, deep)), ...sqliteOnly].filter((c) => !a.only || a.only.includes(c.name));
  const results: Result[] = [];
  let processes: ProcessesRun[] | null = null;
  try {
    for (const c of classes) {
      const seconds = c.total ? Math.max(a.duration, 8) : a.duration;
      const floor = await measureFloor(c, Math.min(seconds, 3));
      const http: Record<number, Stats> = {};
      if (server) for (const n of a.connections) http[n] = await measureHttp(server.ready.url, server.ready.key, c, seconds, n);
      const plan = planOf(store, c, deep);
      const limit = c.total ? { p50: GOAL.totalP99, p99: GOAL.totalP99 } : GOAL;
      const measured = http[a.connections[0]] ?? floor;
      const goal = measured.p50 < limit.p50 && measured.p99 < limit.p99 && !measured.errors ? 'met' : 'NOT met';
      const issueGoal = issueGoalOf(c, server ? http : { 1: floor });
      results.push({ name: c.name, what: c.what, queries: c.paths.length, plan, floor, http: server ? http : null, goal, issueGoal });
      console.log(
        `  ${c.name.padEnd(18)} floor p50 ${fmt(floor.p50).padStart(6)} p99 ${fmt(floor.p99).padStart(6)} ms ${Math.round(floor.rps).toString().padStart(6)}/s` +
          Object.entries(http).map(([n, h]) => ` | ${n}c p50 ${fmt(h.p50).padStart(5)} p99 ${fmt(h.p99).padStart(5)} ms ${Math.round(h.rps).toString().padStart(5)}/s${h.errors ? ` ${h.errors} errors` : ''}`).join('') +
          `  ${goal}; issue goal ${issueGoal}`,
      );
    }
    server?.child.kill('SIGTERM');
    server = null;
    if (a.http && a.processes) {
      const mix = classes.filter((c) => (c.name.startsWith('i-') || c.name.startsWith('issue-13')) && !c.total).flatMap((c) => c.paths);
      processes = await compareProcesses(a.url ? { databaseUrl: a.url } : { dbPath: a.db }, mix.length ? mix : classes.flatMap((c) => c.paths).slice(0, 20), Math.max(a.duration, 8));
    }
  } finally {
    server?.child.kill('SIGTERM');
    await store.close();
  }
  printTable(results, a);
  if (processes) printProcesses(processes);
  const out = { at: new Date().toISOString(), db: a.url ? 'postgresql:bench_pg' : a.db, rows, load: loadavg(), connections: a.connections, seeded, results, processes };
  const file = `${dirname(a.db)}/search-bench${a.url ? '-pg' : ''}.json`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(out, null, 2));
  console.log(`\n(raw results in ${file})`);
}

/** Issue 13's shapes as classes of this bench (values from the SQLite register: issue-shapes.ts). */
function issueQueryClasses(store: SqliteStore): QueryClass[] {
  return issueClasses(store.db).map(({ name, what, raw, total }) => ({
    name,
    what,
    total,
    paths: raw.map((p) => `/companies?${encodeQ(p)}`),
    floor: raw.map((p) => floorCall(store, encodeQ(p), null)),
  }));
}

function planOf(store: Store, c: QueryClass, deep: Map<string, { position: KeysetPosition }>): string {
  if (!(store instanceof SqliteStore)) return '(PostgreSQL plans)';
  const kinds = new Map<string, number>();
  for (const path of c.paths) {
    if (!path.startsWith('/companies?')) continue;
    const params = new URLSearchParams(path.slice('/companies?'.length));
    const cursor = params.get('cursor');
    params.delete('cursor');
    const query = toSearchQuery(SEARCH_QUERY_SCHEMA.parse(Object.fromEntries(params)));
    const after = cursor ? ([...deep.values()].find((d) => (d as { cursor?: string }).cursor === cursor)?.position ?? null) : null;
    const kind = planSearch(store.db, query, after).plan.replace(/ .*/, '').replace('walk', 'walk').trim();
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds.entries()].map(([k, n]) => `${k} ${n}`).join(', ');
}

interface Result {
  name: string;
  what: string;
  queries: number;
  plan: string;
  floor: Stats;
  /** By connection count. */
  http: Record<number, Stats> | null;
  goal: string;
  issueGoal: string;
}

/** Issue 13's goal for a class: p99 per connection count (include_total: one limit). */
function issueGoalOf(c: QueryClass, http: Record<number, Stats>): string {
  // include_total on many filters has only the 1.1 s budget; every other class, `hard` too, the issue's goal.
  if (c.name === 'include-total') return '-';
  const ok = Object.entries(http).every(([n, h]) => !h.errors && h.p99 <= (c.total ? ISSUE_GOAL.totalP99 : (ISSUE_GOAL.p99[Number(n)] ?? ISSUE_GOAL.p99[4])));
  return ok ? 'met' : 'NOT met';
}

function printTable(results: Result[], a: Args): void {
  const conns = a.http ? a.connections : [];
  console.log(`\n| class | queries | plans | in-process p50 / p99 ms | req/s |${conns.map((n) => ` HTTP ${n}c p50 / p99 ms | req/s |`).join('')} goal | issue goal |`);
  console.log(`|---|---|---|---|---|${conns.map(() => '---|---|').join('')}---|---|`);
  for (const r of results) {
    const http = conns.map((n) => (r.http?.[n] ? ` ${fmt(r.http[n].p50)} / ${fmt(r.http[n].p99)} | ${Math.round(r.http[n].rps)} |` : ' - | - |')).join('');
    console.log(`| ${r.name} | ${r.queries} | ${r.plan} | ${fmt(r.floor.p50)} / ${fmt(r.floor.p99)} | ${Math.round(r.floor.rps)} |${http} ${r.goal} | ${r.issueGoal} |`);
  }
  console.log(`\nHTTP: autocannon at ${a.connections.join(' and ')} connection(s), ${a.duration} s a class (include_total ≥ 8 s), the server in a child process.`);
  console.log(`Goal: p50 < ${GOAL.p50} ms and p99 < ${GOAL.p99} ms a class; include_total p99 < ${GOAL.totalP99} ms.`);
  console.log(`Issue goal: p99 ≤ ${ISSUE_GOAL.p99[1]} ms at 1 connection, ≤ ${ISSUE_GOAL.p99[4]} ms at 4; include_total on one broad filter ≤ ${ISSUE_GOAL.totalP99} ms.`);
}

function printProcesses(runs: ProcessesRun[]): void {
  console.log('\n`bolag serve --processes N`, autocannon at 4 connections, the issue-13 searches (i-*, issue-13*) mixed:');
  console.log('| processes | req/s | p50 / p99 ms | errors |\n|---|---|---|---|');
  for (const r of runs) console.log(`| ${r.processes} | ${Math.round(r.rps)} | ${fmt(r.p50)} / ${fmt(r.p99)} | ${r.errors} |`);
  const one = runs.find((r) => r.processes === 1);
  const two = runs.find((r) => r.processes === 2);
  if (one && two) console.log(`ratio 2 : 1 = ${(two.rps / one.rps).toFixed(2)} (goal ≥ ${ISSUE_GOAL.processesRatio}): ${two.rps / one.rps >= ISSUE_GOAL.processesRatio ? 'met' : 'NOT met'}`);
}

if (process.env.BOLAG_BENCH_SEARCH_SERVER && process.send) {
  void serveForBench(JSON.parse(process.env.BOLAG_BENCH_SEARCH_SERVER));
}
