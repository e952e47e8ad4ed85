// `npm run bench -- import-bulk [--bolagsverket-rows N] [--scb-rows N] [--dir DIR] [--database-url URL]`
// Generates a Bolagsverket-format file (3,000,000 rows) and an SCB-format file (1,800,000 rows)
// for two weeks, then imports week 1 into an empty register and week 2 on top, each with the
// real binary (`bolag db import --source …`): rows/s and the importer's peak memory (RSS). Then
// our own JSONL format (unchanged and 5 % changed), and week 2 again while a server on the same
// database delivers the events to a webhook. With --database-url (PostgreSQL; the register in the
// URL's `schema`, `bench_import` by default, dropped first): the four weekly steps, our JSONL
// alone, and two weeks beside a server.
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateBolagsverket } from './import-bulk/generate-bolagsverket.js';
import { startDeliveringServer } from './import-bulk/delivering-server.js';
import { generateScb } from './import-bulk/generate-scb.js';
import { writeOursJsonl } from './import-bulk/ours-jsonl.js';
import type { StoreLocation } from '../src/store/store.js';

const BIN = fileURLToPath(new URL('../../bin/bolag.js', import.meta.url));

interface Args {
  bolagsverketRows: number;
  scbRows: number;
  dir: string;
  databaseUrl?: string;
}

function parseArgs(args: string[]): Args {
  const out: Args = { bolagsverketRows: 3_000_000, scbRows: 1_800_000, dir: '/tmp/bolag-bench/open-data' };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--bolagsverket-rows') out.bolagsverketRows = Number(args[++i]);
    else if (args[i] === '--scb-rows') out.scbRows = Number(args[++i]);
    else if (args[i] === '--dir') out.dir = args[++i];
    else if (args[i] === '--database-url') out.databaseUrl = args[++i];
    else throw new Error(`unknown argument ${args[i]}`);
  }
  return out;
}

/** The file for this size and week, generated once and reused by later runs. */
function file(dir: string, source: string, rows: number, week: number, generate: (path: string) => number): string {
  const path = join(dir, `${source}-${rows}-week${week}.txt`);
  if (existsSync(path)) return path;
  const started = Date.now();
  const lines = generate(`${path}.part`);
  execFileSync('mv', [`${path}.part`, path]);
  console.log(`generated ${path}: ${lines.toLocaleString('en')} lines, ${(statSync(path).size / 1e6).toFixed(0)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return path;
}

const TIMED = `/usr/bin/time -f 'PEAK_KB %M CPU_S %U %S' "$0" "$1" "$5" "$2" db import --source "$3" "$4" 2>&1`;

/** The database flag of the binary for a register: a PostgreSQL URL or a SQLite file. */
const dbFlag = (db: string) => (db.startsWith('postgres') ? '--database-url' : '--db');

interface Measured {
  label: string;
  rows: number;
  seconds: number;
  peakMb: number;
  cpuSeconds: number;
  summary: Record<string, unknown>;
}

export async function run(args: string[] = []): Promise<void> {
  const a = parseArgs(args);
  mkdirSync(a.dir, { recursive: true });
  const bv = [1, 2].map((w) => file(a.dir, 'bolagsverket', a.bolagsverketRows, w, (p) => generateBolagsverket(p, a.bolagsverketRows, w)));
  const scb = [1, 2].map((w) => file(a.dir, 'scb', a.scbRows, w, (p) => generateScb(p, a.scbRows, a.bolagsverketRows, w)));
  if (a.databaseUrl) return runOnPostgres(a, bv, scb);
  const db = join(a.dir, 'register.db');
  const served = join(a.dir, 'register-served.db');
  for (const f of [db, served]) for (const suffix of ['', '-wal', '-shm']) rmSync(`${f}${suffix}`, { force: true });
  const report = (m: Measured) =>
    console.log(
      `${m.label}: ${m.rows.toLocaleString('en')} rows in ${m.seconds.toFixed(1)} s = ${Math.round(m.rows / m.seconds).toLocaleString('en')} rows/s, ` +
        `${Math.round(m.rows / m.cpuSeconds).toLocaleString('en')} rows per CPU-second, peak RSS ${m.peakMb} MB; ${JSON.stringify(m.summary)}`,
    );

  console.log(`SQLite; machine load ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores at the start`);
  report(measure(db, 'bolagsverket', bv[0], 'Bolagsverket week 1 into an empty register'));
  report(measure(db, 'scb', scb[0], 'SCB week 1 onto it'));
  copyFileSync(db, served);
  report(measure(db, 'bolagsverket', bv[1], 'Bolagsverket week 2 (update)'));
  report(measure(db, 'scb', scb[1], 'SCB week 2 (update)'));

  const changed = await measureOurs(a, { dbPath: db }, db, '', report);

  // Week 2 again, from the copy of week 1, while a server delivers the events to webhooks.
  await importsBesideServer({ dbPath: served }, served, report, [
    ['bolagsverket', bv[1], 'Bolagsverket week 2, server delivering'],
    ['scb', scb[1], 'SCB week 2, server delivering'],
    ['ours', changed, 'Our JSONL 5 % changed, server delivering'],
  ]);
  console.log(`machine load ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores at the end; database ${(statSync(db).size / 1e6).toFixed(0)} MB`);
}

async function runOnPostgres(a: Args, bv: string[], scb: string[]): Promise<void> {
  const url = new URL(a.databaseUrl!);
  if (!url.searchParams.get('schema')) url.searchParams.set('schema', 'bench_import');
  const schema = url.searchParams.get('schema')!;
  const admin = new URL(url);
  admin.searchParams.delete('schema');
  execFileSync('psql', [admin.toString(), '-qc', `DROP SCHEMA IF EXISTS "${schema}" CASCADE`]);
  const db = url.toString();
  const report = (m: Measured) =>
    console.log(
      `${m.label}: ${m.rows.toLocaleString('en')} rows in ${m.seconds.toFixed(1)} s = ${Math.round(m.rows / m.seconds).toLocaleString('en')} rows/s, ` +
        `${Math.round(m.rows / m.cpuSeconds).toLocaleString('en')} rows per importer CPU-second, peak RSS ${m.peakMb} MB; ${JSON.stringify(m.summary)}`,
    );
  console.log(`PostgreSQL (schema ${schema}); machine load ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores at the start`);
  report(measure(db, 'bolagsverket', bv[0], 'Bolagsverket week 1 into an empty register'));
  report(measure(db, 'scb', scb[0], 'SCB week 1 onto it'));
  report(measure(db, 'bolagsverket', bv[1], 'Bolagsverket week 2 (update)'));
  report(measure(db, 'scb', scb[1], 'SCB week 2 (update)'));
  const changed = await measureOurs(a, { databaseUrl: db }, db, '-postgres', report);
  // A week's changes once more while a server on the same database delivers them: week 1's files
  // again, which undo week 2's (renames, moves and statuses back, vanished rows back, new ones
  // marked vanished), as many differences as a week brings. Then our JSONL with its 5 % renamed,
  // written after week 2: those renames and what week 1 undid of week 2 in its companies.
  await importsBesideServer({ databaseUrl: db }, db, report, [
    ['bolagsverket', bv[0], 'Bolagsverket week 1 again (week 2 undone), server delivering'],
    ['scb', scb[0], 'SCB week 1 again (week 2 undone), server delivering'],
    ['ours', changed, 'Our JSONL 5 % changed (written after week 2), server delivering'],
  ]);
  console.log(`machine load ${loadavg()[0].toFixed(1)} at the end (the server's CPU is not in the importer's CPU-seconds)`);
}

/**
 * Our own format: the first companies of the register as the export writes them, unchanged, then
 * 5 % renamed, each file imported; the path of the changed one.
 */
async function measureOurs(a: Args, location: StoreLocation, db: string, suffix: string, report: (m: Measured) => void): Promise<string> {
  const rows = Math.min(200_000, a.bolagsverketRows);
  const same = join(a.dir, `ours-unchanged${suffix}.jsonl`);
  const changed = join(a.dir, `ours-changed${suffix}.jsonl`);
  await writeOursJsonl(location, same, rows, 0, 50);
  await writeOursJsonl(location, changed, rows, 0.05, 51);
  report(measure(db, 'ours', same, `Our JSONL, ${rows.toLocaleString('en')} unchanged`));
  report(measure(db, 'ours', changed, 'Our JSONL, 5 % changed'));
  return changed;
}

/** Imports while a server on the same database delivers every company event and answers searches. */
async function importsBesideServer(
  location: StoreLocation,
  db: string,
  report: (m: Measured) => void,
  steps: readonly (readonly [string, string, string])[],
): Promise<void> {
  const server = await startDeliveringServer(location);
  try {
    for (const [source, path, label] of steps) {
      const before = server.delivered();
      server.probe();
      const m = await measureAsync(db, source, path, label);
      const p = server.probe();
      report(m);
      console.log(`  deliveries during it: ${(server.delivered() - before).toLocaleString('en')}`);
      console.log(
        `  searches answered during it: ${p.searches} (${p.failed} failed), p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms, max ${p.maxMs} ms; the server's event loop held up ${p.loopDelayMaxMs} ms at most`,
      );
    }
  } finally {
    await server.close();
  }
}

function measure(db: string, source: string, path: string, label: string): Measured {
  const started = process.hrtime.bigint();
  return measured(label, started, execFileSync('/bin/sh', ['-c', TIMED, process.execPath, BIN, db, source, path, dbFlag(db)], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  }));
}

/** The same without blocking this process's event loop (the server runs in it). */
async function measureAsync(db: string, source: string, path: string, label: string): Promise<Measured> {
  const started = process.hrtime.bigint();
  const out = await new Promise<string>((resolve, reject) => {
    execFile('/bin/sh', ['-c', TIMED, process.execPath, BIN, db, source, path, dbFlag(db)], { encoding: 'utf8', maxBuffer: 64 << 20 }, (err, stdout) =>
      err ? reject(new Error(`import failed: ${stdout}`)) : resolve(stdout),
    );
  });
  return measured(label, started, out);
}

function measured(label: string, started: bigint, out: string): Measured {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const lines = out.trim().split('\n');
  const summaryLine = lines.find((l) => l.startsWith('{"created"'));
  if (!summaryLine) throw new Error(`import failed:\n${out}`);
  const peak = Number(/PEAK_KB (\d+)/.exec(out)?.[1] ?? 0);
  const cpu = /CPU_S ([\d.]+) ([\d.]+)/.exec(out);
  const summary = JSON.parse(summaryLine) as Record<string, unknown>;
  return { label, rows: Number(summary.rows ?? Number(summary.created) + Number(summary.updated) + Number(summary.unchanged)), seconds, peakMb: Math.round(peak / 1024), cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN, summary };
}
