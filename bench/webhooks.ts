// npm run bench -- webhooks [deliveries] [--database-url URL]:
//   1. Verified deliveries per second into `bolag listen` (the built binary, JSONL to a pipe),
//      from pre-signed POSTs over keep-alive connections (goal 5,000/s).
//   2. Deliveries per second from the server's dispatcher (outbox → fan-out → signed POST) to a
//      local receiver, here `bolag listen` again, so every delivery is also verified (goal 1,000/s);
//      on SQLite, and with --database-url on PostgreSQL too (schema `bench_webhooks`, dropped first).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { newId } from '../src/core/ids.js';
import { benchDatabaseUrl } from './lib/pg-url.js';
import { startServer } from '../src/server/start.js';
import { openStore } from '../src/store/open-store.js';
import { signPayload } from '../src/webhooks/signature.js';

const ROOT = fileURLToPath(new URL(existsSync(fileURLToPath(new URL('../package.json', import.meta.url))) ? '..' : '../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'bolag.js');
const SECRET = 'whsec_bench_0123456789abcdef';

export interface WebhooksBenchResult {
  listenPerSecond: number;
  dispatcherPerSecond: number;
  dispatcherOnPostgresPerSecond?: number;
}

interface Listener {
  child: ChildProcess;
  url: string;
  lines(): number;
  untilLines(n: number, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

async function startListener(args: string[]): Promise<Listener> {
  const child = spawn(process.execPath, [BIN, 'listen', '--format', 'jsonl', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), BOLAG_HOME: mkdtempSync(join(tmpdir(), 'bolag-bench-home-')) },
  });
  let lines = 0;
  let waiter: { n: number; resolve: () => void } | undefined;
  child.stdout!.on('data', (c: Buffer) => {
    for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++;
    if (waiter && lines >= waiter.n) waiter.resolve();
  });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /Ready: listening on (\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error(`bolag listen exited: ${err}`)));
  });
  return {
    child,
    url,
    lines: () => lines,
    untilLines: (n, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        if (lines >= n) return resolve();
        const timer = setTimeout(() => reject(new Error(`only ${lines} of ${n} deliveries after ${timeoutMs} ms`)), timeoutMs);
        waiter = {
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

async function benchListen(total: number): Promise<number> {
  const l = await startListener(['--port', '0', '--secret', SECRET]);
  try {
    const t = Math.floor(Date.now() / 1000);
    const bodies = Array.from({ length: total }, () => {
      const id = newId('evt');
      const body = JSON.stringify({ id, type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: 'c', org_nr: '556000-0001', changed_fields: ['name'] } });
      return { id, body, sig: signPayload(body, [SECRET], t) };
    });
    // Pipelined keep-alive connections: the load generator shares the two cores with the listener.
    const agent = new Agent({ connections: 8, pipelining: 16, keepAliveTimeout: 30_000 });
    const concurrency = 128;
    let next = 0;
    let failed = 0;
    const worker = async () => {
      while (next < bodies.length) {
        const b = bodies[next++];
        const res = await request(l.url, {
          method: 'POST',
          body: b.body,
          headers: { 'content-type': 'application/json', 'bolag-signature': b.sig, 'bolag-event-id': b.id, 'bolag-event-type': 'company.updated' },
          dispatcher: agent,
        });
        await res.body.dump();
        if (res.statusCode !== 200) failed++;
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    await l.untilLines(total, 60_000);
    const seconds = (performance.now() - started) / 1000;
    await agent.close();
    if (failed > 0) throw new Error(`${failed} deliveries were refused`);
    return total / seconds;
  } finally {
    await l.stop();
  }
}

/** Where the dispatcher's register goes: a fresh SQLite file, or a fresh schema at this PostgreSQL URL. */
function dispatcherLocation(dir: string, databaseUrl: string | null): { dbPath: string } | { databaseUrl: string } {
  if (!databaseUrl) return { dbPath: join(dir, 'register.db') };
  const url = new URL(databaseUrl);
  url.searchParams.set('schema', 'bench_webhooks');
  const admin = new URL(url);
  admin.searchParams.delete('schema');
  execFileSync('psql', [admin.toString(), '-qc', 'DROP SCHEMA IF EXISTS bench_webhooks CASCADE']);
  return { databaseUrl: url.toString() };
}

async function benchDispatcher(total: number, databaseUrl: string | null): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bolag-bench-wh-'));
  const location = dispatcherLocation(dir, databaseUrl);
  const l = await startListener(['--port', '0', '--secret', SECRET]);
  try {
    // Prepare: the register, a webhook with a known secret, and `total` events in the outbox.
    const prep = await startServer({ port: 0, ...location, seedCount: 1000, workers: false, allowInsecureWebhooks: true, rateLimit: { max: 0, windowMs: 60_000 } });
    const store = await openStore(location);
    const account = (await store.accounts.findAccountByName('local'))!;
    await store.webhooks.create({
      id: newId('whk'),
      account_id: account.id,
      url: `${l.url}bench`,
      events: ['company.updated'],
      filters: { status: ['aktiv'] },
      status: 'active',
      secret: SECRET,
      previous_secret: null,
      previous_secret_expires_at: null,
      consecutive_failures: 0,
      failing_since: null,
      created_at: new Date().toISOString(),
    });
    for (let i = 0; i < total; i++) {
      const event = { id: newId('evt'), type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: `c${i}`, org_nr: '556000-0001', changed_fields: ['name'] } };
      await store.outbox.append(event, null, { status: 'aktiv', county: '01' });
    }
    await prep.close();
    await store.close();

    // Measure: the server starts its workers, which fan out and deliver everything.
    const server = await startServer({ port: 0, ...location, workers: true, allowInsecureWebhooks: true, rateLimit: { max: 0, windowMs: 60_000 } });
    const started = performance.now();
    try {
      await l.untilLines(total, 120_000);
    } finally {
      await server.close();
    }
    return total / ((performance.now() - started) / 1000);
  } finally {
    await l.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(args: string[] = []): Promise<WebhooksBenchResult> {
  const { url: databaseUrl, rest } = benchDatabaseUrl(args);
  const total = rest[0] ? Number(rest[0]) : 20_000;
  console.log(`webhooks: ${fmt(total)} deliveries each`);
  const listenPerSecond = await benchListen(total * 2);
  console.log(`  into bolag listen (verified, JSONL)   ${fmt(listenPerSecond)}/s (goal 5,000/s: ${listenPerSecond >= 5000 ? 'met' : 'NOT met'})`);
  const dispatcherPerSecond = await benchDispatcher(total, null);
  console.log(`  dispatcher → local receiver, SQLite   ${fmt(dispatcherPerSecond)}/s (goal 1,000/s: ${dispatcherPerSecond >= 1000 ? 'met' : 'NOT met'})`);
  if (databaseUrl) {
    const onPostgres = await benchDispatcher(total, databaseUrl);
    console.log(`  dispatcher → local receiver, PostgreSQL ${fmt(onPostgres)}/s (goal 1,000/s: ${onPostgres >= 1000 ? 'met' : 'NOT met'})`);
    return { listenPerSecond, dispatcherPerSecond, dispatcherOnPostgresPerSecond: onPostgres };
  }
  return { listenPerSecond, dispatcherPerSecond };
}

// Run directly: node dist/bench/webhooks.js [deliveries]
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run(process.argv.slice(2)).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
