// npm run bench -- export [--db PATH] [--count N] [--threads N]: the whole register exported as CSV
// and as JSONL by a real server in a child process, through the API (POST /exports, poll GET).
// Reports rows/s (the server's created_at → completed_at) and the server's peak resident memory
// (VmHWM of the child; each format runs in a fresh server). Goal: ≥ 150,000 rows/s, ≤ 250 MB.
// The register: --db PATH, else /tmp/bolag-bench/register.db (made by the search bench), else
// one seeded once into /tmp/bolag-bench-export/. It is copied first: the server writes to it.
import Database from 'better-sqlite3';
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedRegister } from '../src/app/seed-register.js';
import { issueKey } from '../src/server/api-keys.js';
import { startServer } from '../src/server/start.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';

const GOAL_ROWS_PER_SECOND = 150_000;
const GOAL_RSS_MB = 250;
const SHARED_REGISTER = '/tmp/bolag-bench/register.db';
const OWN_REGISTER = join(tmpdir(), 'bolag-bench-export', 'register.db');

interface Args {
  db?: string;
  count: number;
  threads?: number;
}

function parseArgs(args: string[]): Args {
  const out: Args = { count: 1_200_000 };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--db') out.db = args[++i];
    else if (args[i] === '--count') out.count = Number(args[++i]);
    else if (args[i] === '--threads') out.threads = Number(args[++i]);
  }
  return out;
}

async function registerPath(a: Args): Promise<string> {
  if (a.db) return a.db;
  if (existsSync(SHARED_REGISTER)) return SHARED_REGISTER;
  if (!existsSync(OWN_REGISTER)) {
    console.log(`export: seeding ${a.count.toLocaleString('en')} companies into ${OWN_REGISTER} (once)…`);
    mkdirSync(join(OWN_REGISTER, '..'), { recursive: true });
    const store = openSqliteStore(`${OWN_REGISTER}.partial`);
    await seedRegister(store, { count: a.count });
    await store.close();
    copyFileSync(`${OWN_REGISTER}.partial`, OWN_REGISTER);
    rmSync(`${OWN_REGISTER}.partial`, { force: true });
  }
  return OWN_REGISTER;
}

/** Resident memory of a process from /proc: current, peak (VmHWM), anonymous and file-backed, in MB. */
function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile') };
}

/** CPU seconds a process has used (user + system, all its threads). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks
}

interface Ready {
  url: string;
  key: string;
}

async function startChild(dbPath: string, exportDir: string, threads: number | undefined): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, BOLAG_BENCH_EXPORT_SERVER: JSON.stringify({ dbPath, exportDir, threads }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { child, ready };
}

async function call(ready: Ready, method: string, path: string, body?: unknown) {
  const res = await fetch(`${ready.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ready.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function exportOnce(dbPath: string, dir: string, format: 'csv' | 'jsonl', threads: number | undefined) {
  const exportDir = join(dir, `exports-${format}`);
  const { child, ready } = await startChild(dbPath, exportDir, threads);
  try {
    const before = memoryOf(child.pid!);
    const cpuStart = cpuSecondsOf(child.pid!);
    const wallStart = Date.now();
    const created = await call(ready, 'POST', '/exports', { format, filters: { status: 'all', exclude_advertising_blocked: false } });
    let peakAnon = before.anon;
    let peakRss = before.rss;
    let e = created;
    while (e.status === 'queued' || e.status === 'running') {
      await new Promise((r) => setTimeout(r, 100));
      const m = memoryOf(child.pid!);
      peakAnon = Math.max(peakAnon, m.anon);
      peakRss = Math.max(peakRss, m.rss);
      e = await call(ready, 'GET', `/exports/${created.id}`);
    }
    const wallSeconds = (Date.now() - wallStart) / 1000;
    const cpuSeconds = cpuSecondsOf(child.pid!) - cpuStart;
    if (e.status !== 'completed') throw new Error(`export ${e.status}: ${JSON.stringify(e.error)}`);
    const after = memoryOf(child.pid!);
    // Check one part end to end: download it and compare its sha256.
    const first = e.files[0];
    const bytes = Buffer.from(await (await fetch(first.url)).arrayBuffer());
    const verified = createHash('sha256').update(bytes).digest('hex') === first.sha256 && bytes.length === first.bytes;
    const seconds = (Date.parse(e.completed_at) - Date.parse(e.created_at)) / 1000;
    return {
      format,
      rows: e.row_count as number,
      parts: e.files.length as number,
      bytes: e.files.reduce((n: number, f: { bytes: number }) => n + f.bytes, 0) as number,
      seconds,
      wallSeconds,
      rowsPerSecond: Math.round(e.row_count / seconds),
      cpuSeconds,
      peakMb: after.peak,
      peakDuringMb: peakRss,
      peakAnonMb: peakAnon,
      startMb: before.rss,
      verified,
    };
  } finally {
    child.send('stop');
    await new Promise((r) => child.once('exit', r));
    rmSync(exportDir, { recursive: true, force: true });
  }
}

export async function run(args: string[] = []): Promise<void> {
  const a = parseArgs(args);
  const source = await registerPath(a);
  const dir = mkdtempSync(join(tmpdir(), 'bolag-bench-export-'));
  const dbPath = join(dir, 'register.db');
  try {
    // A consistent copy even while another process has the register open (SQLite's backup API).
    const reader = new Database(source, { readonly: true, fileMustExist: true });
    await reader.backup(dbPath);
    reader.close();
    console.log(`export: the whole register (${source}), every status, advertising block included`);
    for (const format of ['csv', 'jsonl'] as const) {
      const r = await exportOnce(dbPath, dir, format, a.threads);
      const mb = (n: number) => `${n.toFixed(0)} MB`;
      console.log(
        `  ${format.padEnd(5)} ${r.rows.toLocaleString('en')} rows in ${r.parts} parts, ${(r.bytes / 1024 ** 2).toFixed(0)} MiB, ` +
          `${r.seconds.toFixed(1)} s → ${r.rowsPerSecond.toLocaleString('en')} rows/s (wall with polling ${r.wallSeconds.toFixed(1)} s); ` +
          `server peak RSS ${mb(r.peakMb)} (during the export ${mb(r.peakDuringMb)}, anonymous ${mb(r.peakAnonMb)}; at start ${mb(r.startMb)}); ` +
          `part 1 sha256 ${r.verified ? 'verified' : 'MISMATCH'}`,
      );
      // The server's CPU time: on a machine shared with other work, rows per CPU-second and the
      // cores it got say what the wall clock cannot.
      console.log(
        `        server CPU ${r.cpuSeconds.toFixed(1)} s (${(r.cpuSeconds / r.wallSeconds).toFixed(2)} cores on average, ` +
          `${Math.round(r.rows / r.cpuSeconds).toLocaleString('en')} rows per CPU-second); machine load ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`,
      );
      const met = r.rowsPerSecond >= GOAL_ROWS_PER_SECOND && r.peakMb <= GOAL_RSS_MB;
      console.log(`        goal ≥ ${GOAL_ROWS_PER_SECOND.toLocaleString('en')} rows/s and ≤ ${GOAL_RSS_MB} MB: ${met ? 'met' : 'NOT met'}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The child: a server over the copied register, a key for the bench, and a clean stop on request. */
async function serveForBench(setup: { dbPath: string; exportDir: string; threads?: number }): Promise<void> {
  if (setup.threads !== undefined) {
    const { WORKERS } = await import('../src/server/workers.js');
    const { createExportWorker } = await import('../src/exports/worker.js');
    const i = WORKERS.indexOf(createExportWorker);
    WORKERS[i] = (ctx) => createExportWorker(ctx, { threads: setup.threads });
  }
  const server = await startServer({ port: 0, dbPath: setup.dbPath, exportDir: setup.exportDir, rateLimit: { max: 0, windowMs: 60_000 } });
  let key = server.apiKey;
  if (!key) {
    const store = openSqliteStore(setup.dbPath);
    key = (await issueKey(store, { account: 'bench', plan: 'pro', scopes: ['exports:create', 'exports:read'] })).key;
    await store.close();
  }
  process.on('message', async (m) => {
    if (m === 'stop') {
      await server.close();
      process.exit(0);
    }
  });
  process.send!({ url: server.url, key });
}

if (process.env.BOLAG_BENCH_EXPORT_SERVER && process.send) {
  void serveForBench(JSON.parse(process.env.BOLAG_BENCH_EXPORT_SERVER));
}
