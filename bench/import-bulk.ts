// `npm run bench -- import-bulk [--bolagsverket-rows N] [--scb-rows N] [--dir DIR] [--only bolagsverket|scb]`
// Generates a Bolagsverket-format file (3,000,000 rows) and an SCB-format file (1,800,000 rows)
// for two weeks, then imports week 1 into an empty register and week 2 on top, each with the
// real binary (`bolag db import --source …`): rows/s and the importer's peak memory (RSS).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateBolagsverket } from './import-bulk/generate-bolagsverket.js';
import { generateScb } from './import-bulk/generate-scb.js';

const BIN = fileURLToPath(new URL('../../bin/bolag.js', import.meta.url));

interface Args {
  bolagsverketRows: number;
  scbRows: number;
  dir: string;
  only: string | null;
}

function parseArgs(args: string[]): Args {
  const out: Args = { bolagsverketRows: 3_000_000, scbRows: 1_800_000, dir: '/tmp/bolag-bench/open-data', only: null };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--bolagsverket-rows') out.bolagsverketRows = Number(args[++i]);
    else if (args[i] === '--scb-rows') out.scbRows = Number(args[++i]);
    else if (args[i] === '--dir') out.dir = args[++i];
    else if (args[i] === '--only') out.only = args[++i];
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

interface Measured {
  label: string;
  rows: number;
  seconds: number;
  peakMb: number;
  summary: Record<string, unknown>;
}

export async function run(args: string[] = []): Promise<void> {
  const a = parseArgs(args);
  mkdirSync(a.dir, { recursive: true });
  const bv = [1, 2].map((w) => file(a.dir, 'bolagsverket', a.bolagsverketRows, w, (p) => generateBolagsverket(p, a.bolagsverketRows, w)));
  const scb = [1, 2].map((w) => file(a.dir, 'scb', a.scbRows, w, (p) => generateScb(p, a.scbRows, a.bolagsverketRows, w)));
  const db = join(a.dir, 'register.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });

  const steps: [string, string, string][] = [
    ['bolagsverket', bv[0], 'Bolagsverket week 1 into an empty register'],
    ['scb', scb[0], 'SCB week 1 onto it'],
    ['bolagsverket', bv[1], 'Bolagsverket week 2 (update)'],
    ['scb', scb[1], 'SCB week 2 (update)'],
  ].filter(([source]) => !a.only || source === a.only) as [string, string, string][];
  const results: Measured[] = [];
  for (const [source, path, label] of steps) {
    const m = measure(db, source, path, label);
    results.push(m);
    console.log(
      `${label}: ${m.rows.toLocaleString('en')} rows in ${m.seconds.toFixed(1)} s = ${Math.round(m.rows / m.seconds).toLocaleString('en')} rows/s, ` +
        `peak RSS ${m.peakMb} MB; ${JSON.stringify(m.summary)}`,
    );
  }
  console.log(`SQLite, machine load ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores; database ${(statSync(db).size / 1e6).toFixed(0)} MB`);
}

function measure(db: string, source: string, path: string, label: string): Measured {
  const started = process.hrtime.bigint();
  const out = execFileSync('/bin/sh', ['-c', `/usr/bin/time -f 'PEAK_KB %M' "$0" "$1" --db "$2" db import --source "$3" "$4" 2>&1`, process.execPath, BIN, db, source, path], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const lines = out.trim().split('\n');
  const summaryLine = lines.find((l) => l.startsWith('{"created"'));
  if (!summaryLine) throw new Error(`import failed:\n${out}`);
  const peak = Number(/PEAK_KB (\d+)/.exec(out)?.[1] ?? 0);
  const summary = JSON.parse(summaryLine) as Record<string, unknown>;
  return { label, rows: Number(summary.rows), seconds, peakMb: Math.round(peak / 1024), summary };
}
