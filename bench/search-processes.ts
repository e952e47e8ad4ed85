// `bolag serve --processes N` compared: the real binary on the bench register with 1 and then 2
// processes, loaded by autocannon at 4 connections with the same mix of searches; requests/s and
// their ratio (goal: 2 processes at least 1.4 × one, on a 2-core machine where autocannon shares
// the cores). Part of `npm run bench -- search`.
import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueKey } from '../src/server/api-keys.js';
import { openStore } from '../src/store/open-store.js';

const BIN = fileURLToPath(new URL('../../bin/bolag.js', import.meta.url));

export interface ProcessesRun {
  processes: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

type Autocannon = (opts: Record<string, unknown>) => Promise<{ latency: { p50: number; p99: number }; requests: { average: number }; non2xx: number; errors: number; timeouts: number }>;

/** The register: a SQLite file or a PostgreSQL database (the bench's schema in its URL). */
export interface BenchLocation {
  dbPath?: string;
  databaseUrl?: string;
}

export async function compareProcesses(where: BenchLocation, paths: string[], seconds: number, connections = 4, counts = [1, 2]): Promise<ProcessesRun[]> {
  const side = await openStore(where);
  const { key } = await issueKey(side, { account: 'bench-processes', plan: 'pro', scopes: ['companies:read'] });
  await side.close();
  const home = mkdtempSync(join(tmpdir(), 'bolag-bench-processes-'));
  const out: ProcessesRun[] = [];
  try {
    for (const processes of counts) out.push(await runWith(where, home, key, processes, paths, seconds, connections));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return out;
}

async function runWith(where: BenchLocation, home: string, key: string, processes: number, paths: string[], seconds: number, connections: number): Promise<ProcessesRun> {
  const target = where.databaseUrl ? ['--database-url', where.databaseUrl] : ['--db', where.dbPath!];
  const child = execa('node', [BIN, ...target, 'serve', '--port', '0', '--processes', String(processes), '--rate-limit', '0'], {
    reject: false,
    env: { ...process.env, BOLAG_HOME: home },
  });
  try {
    let stderr = '';
    const base = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /listening on (\S+)/.exec(stderr);
        if (m) resolve(m[1]);
      });
      void child.then(() => reject(new Error(`serve exited: ${stderr}`)));
    });
    const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
    const url = new URL(base);
    const prefix = url.pathname.replace(/\/$/, '');
    const opts = { url: url.origin, connections, headers: { authorization: `Bearer ${key}` }, requests: paths.map((p) => ({ method: 'GET', path: `${prefix}${p}` })) };
    await autocannon({ ...opts, amount: paths.length * 4 * processes }); // warm every process
    const r = await autocannon({ ...opts, duration: seconds });
    return { processes, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors + r.timeouts };
  } finally {
    child.kill('SIGTERM');
    await child;
  }
}
