// npm run bench -- load [--db PATH] [--count N] [--seconds S]
//
// Sixty seconds of mixed traffic against `bolag serve` (the built binary, in a child process,
// workers on): searches, exports (created, polled, small enough to finish) and webhook traffic
// (test deliveries to a local receiver, delivery logs), each kind from its own autocannon
// instance at once. Reports requests/s, p50 and p99 per kind, errors, deliveries received, and
// the server's RSS 10 s in and at the end (goal: no errors, RSS at the end within 10 % of 10 s).
// The register is --db (default /tmp/bolag-bench-load/register.db, seeded with --count
// companies, 200,000 by default, when missing). Use a register no one else is writing to: the
// run writes exports, jobs and deliveries into it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedRegister } from '../src/app/seed-register.js';
import { issueKey } from '../src/server/api-keys.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { parseFlags } from './lib/flags.js';

const ROOT = fileURLToPath(new URL(existsSync(fileURLToPath(new URL('../package.json', import.meta.url))) ? '..' : '../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'bolag.js');

type Args = {
  db: string;
  count: number;
  seconds: number;
};

function parseArgs(args: string[]): Args {
  return parseFlags<Args>(args, { db: '/tmp/bolag-bench-load/register.db', count: 200_000, seconds: 60 }, { '--db': 'db', '--count': 'count', '--seconds': 'seconds' });
}

interface Result {
  latency: { p50: number; p99: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<Result>;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const WORDS = ['bygg', 'snickeri', 'konsult', 'handel', 'restaurang', 'transport', 'fastighet', 'data', 'el', 'måleri'];
const COUNTIES = ['01', '03', '12', '14', '22', '25'];
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)];

export async function run(argv: string[] = []): Promise<void> {
  const a = parseArgs(argv);
  if (!existsSync(a.db)) {
    mkdirSync(dirname(a.db), { recursive: true });
    console.log(`load: seeding ${a.count.toLocaleString('en')} companies into ${a.db} (once)…`);
    const store = openSqliteStore(a.db);
    await seedRegister(store, { count: a.count });
    await store.close();
  }
  const side = openSqliteStore(a.db);
  const companies = side.db.prepare('SELECT count(*) FROM companies').pluck().get() as number;
  const { key } = await issueKey(side, { account: `bench-load-${Date.now()}`, plan: 'pro', scopes: ['companies:read', 'exports:create', 'exports:read', 'webhooks:manage'] });
  await side.close();

  // A receiver for the deliveries.
  let delivered = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', a.db, '--allow-insecure-webhooks', '--rate-limit', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), BOLAG_HOME: join(dirname(a.db), 'home') },
  });
  let err = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error(`serve exited: ${err}`)));
  });
  const url = new URL(base);
  const prefix = url.pathname;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const hook = (await (await fetch(`${base}/webhooks`, { method: "POST", headers, body: JSON.stringify({ url: receiverUrl, events: ["export.completed", "company.updated"] }) })).json()) as { data: { id: string } };
  const hookId = hook.data.id as string;
  let lastExport = '';

  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const common = { url: url.origin, duration: a.seconds, headers: { authorization: headers.authorization } };
  const kinds: Record<string, Record<string, unknown>> = {
    search: {
      connections: 8,
      requests: [
        {
          method: 'GET',
          setupRequest: (r: Record<string, unknown>) => {
            const variants = [
              `q=${encodeURIComponent(pick(WORDS))}&limit=25`,
              `county=${pick(COUNTIES)}&sort=-revenue&limit=50`,
              `q=${encodeURIComponent(pick(WORDS))}&county=${pick(COUNTIES)}&trend=${encodeURIComponent('växande')}`,
              `near=59.33,18.06&radius_km=5&sort=distance`,
              `legal_form=aktiebolag&revenue_min=1000000&fields=name,revenue`,
            ];
            return { ...r, path: `${prefix}/companies?${pick(variants)}` };
          },
        },
      ],
    },
    export: {
      connections: 2,
      requests: [
        {
          method: 'POST',
          path: `${prefix}/exports`,
          headers,
          setupRequest: (r: Record<string, unknown>) => ({ ...r, body: JSON.stringify({ format: pick(['csv', 'jsonl']), filters: { q: pick(WORDS), municipality: pick(['0180', '1480', '1280']) } }) }),
          onResponse: (_status: number, body: string) => {
            try {
              lastExport = JSON.parse(body).data.id;
            } catch {
              // counted as a non-2xx by autocannon
            }
          },
        },
        { method: 'GET', setupRequest: (r: Record<string, unknown>) => ({ ...r, path: lastExport ? `${prefix}/exports/${lastExport}` : `${prefix}/exports` }) },
      ],
    },
    webhook: {
      connections: 2,
      requests: [
        { method: 'POST', path: `${prefix}/webhooks/${hookId}/test` },
        { method: 'GET', path: `${prefix}/webhooks/${hookId}/deliveries?limit=25` },
        { method: 'GET', path: `${prefix}/webhooks/${hookId}` },
      ],
    },
  };

  console.log(`load: ${companies.toLocaleString('en')} companies, ${a.seconds} s, search ×8, export ×2, webhook ×2 connections; ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`);
  const rss: { at10?: number; end?: number; start: number } = { start: rssMb(child.pid!) };
  const t10 = setTimeout(() => (rss.at10 = rssMb(child.pid!)), 10_000);
  const results = await Promise.all(Object.entries(kinds).map(async ([kind, opts]) => [kind, await autocannon({ ...common, ...opts })] as const));
  clearTimeout(t10);
  rss.end = rssMb(child.pid!);
  // Let the last deliveries land.
  await new Promise((r) => setTimeout(r, 2000));

  for (const [kind, r] of results) {
    // Exports created faster than they finish meet the account's cap of unfinished ones (429), as they should.
    const capped = kind === 'export' ? ((r.statusCodeStats as Record<string, { count: number }>)['429']?.count ?? 0) : 0;
    const errors = r.non2xx - capped + r.errors + r.timeouts;
    if (errors) console.log(`${kind}: status codes ${JSON.stringify(r.statusCodeStats)}`);
    console.log(
      `${kind.padEnd(8)} ${r.requests.average.toFixed(0).padStart(6)} req/s  p50 ${String(r.latency.p50).padStart(4)} ms  p99 ${String(r.latency.p99).padStart(5)} ms  ` +
        `${r.requests.total} requests, ${errors} errors${errors ? ` (non-2xx ${r.non2xx - capped}, errors ${r.errors}, timeouts ${r.timeouts})` : ''}` +
        `${capped ? `, ${capped} refused at the account's cap of unfinished exports (429)` : ''}`,
    );
  }
  const growth = rss.at10 ? ((rss.end - rss.at10) / rss.at10) * 100 : NaN;
  console.log(`RSS: start ${rss.start.toFixed(0)} MB, at 10 s ${rss.at10?.toFixed(0)} MB, end ${rss.end.toFixed(0)} MB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %)`);
  console.log(`deliveries received: ${delivered}`);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  receiver.close();
}
