// `npm run bench -- spatial-pack [--db PATH] [--runs N] [--cache-kib N]`: the spatial index's pack
// alone, both ways (in memory, the seeder's; streamed from SQLite's sorter, an import's first
// load), as the index thread runs it: into a side database, the register attached and read
// through a view, temporary files for SQLite's sorter, the given page cache (the seeder's
// 262,144 KiB by default; an import's is 4,096). Alternating runs; CPU time of this thread, on
// which the pack and SQLite's sorter run.
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { packSpatialIndex, type SpatialPack } from '../src/store/sqlite/company-writer.js';
import { parseFlags } from './lib/flags.js';

type Args = {
  db: string;
  runs: number;
  cacheKiB: number;
};

function parseArgs(args: string[]): Args {
  return parseFlags<Args>(args, { db: '/tmp/bolag-bench/register.db', runs: 3, cacheKiB: 262_144 }, { '--db': 'db', '--runs': 'runs', '--cache-kib': 'cacheKiB' });
}

export function run(args: string[] = []): void {
  const a = parseArgs(args);
  if (!existsSync(a.db)) throw new Error(`${a.db}: no register (npm run bench -- search seeds one)`);
  const dir = mkdtempSync(join(tmpdir(), 'bolag-bench-pack-'));
  try {
    const points = new Database(a.db, { readonly: true }).prepare('SELECT count(*) FROM companies WHERE lat IS NOT NULL AND lng IS NOT NULL').pluck().get() as number;
    console.log(`spatial pack of ${points.toLocaleString('en')} points (${a.db}), page cache ${a.cacheKiB.toLocaleString('en')} KiB; load ${loadavg()[0].toFixed(1)}`);
    const times: Record<SpatialPack, number[]> = { 'in-memory': [], streamed: [] };
    for (let r = 0; r < a.runs; r++) {
      for (const how of ['in-memory', 'streamed'] as const) {
        const [cpu, wall] = packOnce(a, join(dir, `side-${r}-${how}.db`), how);
        times[how].push(cpu);
        console.log(`  ${how.padEnd(9)} ${cpu.toFixed(2)} CPU-s, ${wall.toFixed(2)} s (load ${loadavg()[0].toFixed(1)})`);
      }
    }
    for (const how of ['in-memory', 'streamed'] as const) {
      const sorted = [...times[how]].sort((x, y) => x - y);
      console.log(`${how}: median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} CPU-s of ${sorted.map((t) => t.toFixed(2)).join(', ')}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One pack into a fresh side database, as index-thread.ts sets it up: [CPU-s, s]. */
function packOnce(a: Args, path: string, how: SpatialPack): [number, number] {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma(`cache_size = ${-a.cacheKiB}`);
    db.pragma('temp_store = FILE');
    db.exec(`ATTACH '${a.db.replaceAll("'", "''")}' AS register`);
    db.exec(db.prepare("SELECT sql FROM register.sqlite_master WHERE name = 'companies_geo'").pluck().get() as string);
    db.pragma('register.mmap_size = 0');
    db.pragma('register.cache_size = -2048');
    db.exec('CREATE TEMP VIEW companies AS SELECT * FROM register.companies');
    const cpu = process.cpuUsage();
    const wall = process.hrtime.bigint();
    db.unsafeMode(true);
    db.transaction(() => packSpatialIndex(db, how))();
    db.unsafeMode(false);
    const used = process.cpuUsage(cpu);
    const seconds = Number(process.hrtime.bigint() - wall) / 1e9;
    if (db.prepare("SELECT rtreecheck('companies_geo')").pluck().get() !== 'ok') throw new Error(`${how}: rtreecheck failed`);
    return [(used.user + used.system) / 1e6, seconds];
  } finally {
    db.close();
    rmSync(path, { force: true });
  }
}
