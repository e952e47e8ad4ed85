// npm run bench -- cli [rows]: how the CLI feels.
//   1. Median wall time of `bolag --help` (goal < 150 ms), and of `bolag search --help`.
//   2. Rows/s streaming `rows` (default 100,000) companies as JSONL through
//      `bolag search --all` against a local server, beside a bare undici loop over the same
//      pages in its own process (goal: >= 25,000 rows/s and >= 80 % of the bare loop).
// BOLAG_BENCH_DB=path reuses a register (seeded on first use) instead of a throwaway one.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../src/server/start.js';

const ROOT = fileURLToPath(new URL(existsSync(fileURLToPath(new URL('../package.json', import.meta.url))) ? '..' : '../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'bolag.js');

export interface CliBenchResult {
  helpMedianMs: number;
  searchHelpMedianMs: number;
  rows: number;
  cliRowsPerSecond: number;
  bareRowsPerSecond: number;
  ratio: number;
  cliCeilingRowsPerSecond: number;
}

export async function runCliBench(args: string[] = []): Promise<CliBenchResult> {
  const rows = args[0] ? Number(args[0]) : 100_000;

  // Side by side, alternating, so that whatever else the machine is doing weighs on both.
  const side = await sideBySide([['-e', '0'], [BIN, '--help']], 21);
  const [nodeMedianMs, helpMedianMs] = side.wallMedians;
  const searchHelpMedianMs = await medianWall(['search', '--help'], 9);
  const helpRatio = helpMedianMs / nodeMedianMs;
  console.log('cli: start-up');
  console.log(`  bolag --help          median ${helpMedianMs.toFixed(0)} ms (goal < 150 ms: ${helpMedianMs < 150 ? 'met' : 'NOT met'})`);
  console.log(`  bolag search --help   median ${searchHelpMedianMs.toFixed(0)} ms`);
  console.log(`  node -e 0             median ${nodeMedianMs.toFixed(0)} ms (Node's own start-up on this machine, for scale)`);
  console.log(`  ratio                 bolag --help = ${helpRatio.toFixed(2)} × node -e 0 (goal <= 1.5: ${helpRatio <= 1.5 ? 'met' : 'NOT met'})`);
  if (side.cpuMeans) {
    // CPU time does not grow with what else the machine runs, as wall time does on a busy one.
    const [nodeCpu, helpCpu] = side.cpuMeans;
    console.log(`  CPU time              bolag --help ${helpCpu.toFixed(1)} ms, node -e 0 ${nodeCpu.toFixed(1)} ms: ${(helpCpu / nodeCpu).toFixed(2)} × (mean)`);
  }

  const keep = process.env.BOLAG_BENCH_DB;
  const dir = keep ? undefined : mkdtempSync(join(tmpdir(), 'bolag-bench-cli-'));
  const dbPath = keep ?? join(dir!, 'register.db');
  const fresh = !existsSync(dbPath);
  const seedStarted = Date.now();
  const server = await startServer({ port: 0, host: '127.0.0.1', dbPath, seedCount: rows, rateLimit: { max: 0, windowMs: 60_000 }, workers: false });
  if (fresh) console.log(`  (seeded ${rows.toLocaleString('en')} companies in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s)`);
  try {
    // A reused register keeps the key of its first run beside it.
    const keyFile = `${dbPath}.bench-key`;
    if (server.apiKey && keep) writeFileSync(keyFile, server.apiKey, { mode: 0o600 });
    const apiKey = server.apiKey ?? (existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : process.env.BOLAG_BENCH_KEY);
    if (!apiKey) throw new Error(`no API key for ${dbPath}: set BOLAG_BENCH_KEY`);
    const env: NodeJS.ProcessEnv = { ...process.env, BOLAG_BASE_URL: server.url, BOLAG_API_KEY: apiKey };
    delete env.BOLAG_PROFILE;

    const cli: number[] = [];
    const bare: number[] = [];
    let counted = 0;
    for (let i = 0; i < 3; i++) {
      const c = await timeCli(env, rows);
      const b = await timeBare(server.url, apiKey, rows);
      counted = c.rows;
      if (c.rows !== b.rows) console.log(`  warning: the CLI streamed ${c.rows} rows, the bare loop ${b.rows}`);
      cli.push(c.rows / c.seconds);
      bare.push(b.rows / b.seconds);
    }
    const cliRate = median(cli);
    const bareRate = median(bare);
    const ratio = cliRate / bareRate;
    const ceiling = await cliCeiling(server.url, apiKey, rows);
    console.log(`cli: streaming ${counted.toLocaleString('en')} rows as JSONL (median of 3)`);
    console.log(`  bolag search --all    ${Math.round(cliRate).toLocaleString('en')} rows/s (goal >= 25,000: ${cliRate >= 25_000 ? 'met' : 'NOT met'})`);
    console.log(`  bare undici loop      ${Math.round(bareRate).toLocaleString('en')} rows/s`);
    console.log(`  ratio                 ${(ratio * 100).toFixed(0)} % (goal >= 80 %: ${ratio >= 0.8 ? 'met' : 'NOT met'})`);
    console.log(`  CLI ceiling           ${Math.round(ceiling).toLocaleString('en')} rows/s (bolag search --all against a server that replays one real page: the CLI's own cost)`);
    return { helpMedianMs, searchHelpMedianMs, rows: counted, cliRowsPerSecond: cliRate, bareRowsPerSecond: bareRate, ratio, cliCeilingRowsPerSecond: ceiling };
  } finally {
    await server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

export { runCliBench as run };

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Each command run in turn (a, b, a, b, …) after two warm-up rounds: the median wall time of
 * each and, on Linux, its mean CPU time (user + system, from the children's times in
 * /proc/self/stat, counted in 10 ms ticks, hence a mean over all runs rather than a median).
 */
async function sideBySide(commands: string[][], runs: number): Promise<{ wallMedians: number[]; cpuMeans?: number[] }> {
  const times: number[][] = commands.map(() => []);
  const cpu: number[] = commands.map(() => 0);
  for (let i = 0; i < runs + 2; i++) {
    for (const [k, args] of commands.entries()) {
      const cpuBefore = childrenCpuMs();
      const started = process.hrtime.bigint();
      await exec(process.execPath, args, { ...process.env }, () => undefined);
      if (i < 2) continue;
      times[k].push(Number(process.hrtime.bigint() - started) / 1e6);
      const cpuAfter = childrenCpuMs();
      if (cpuBefore !== undefined && cpuAfter !== undefined) cpu[k] += cpuAfter - cpuBefore;
    }
  }
  return { wallMedians: times.map(median), cpuMeans: childrenCpuMs() === undefined ? undefined : cpu.map((c) => c / runs) };
}

/** User + system CPU of this process's finished children, in ms (Linux only; 100 ticks a second). */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10; // cutime, cstime (fields 16 and 17)
  } catch {
    return undefined;
  }
}

async function medianWall(args: string[], runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const started = process.hrtime.bigint();
    await exec(process.execPath, [BIN, ...args], { ...process.env }, () => undefined);
    if (i >= 2) times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(times);
}

/** Runs a child, counting newline bytes of its stdout; resolves with the count and wall time. */
function exec(cmd: string, args: string[], env: NodeJS.ProcessEnv, onChunk: (chunk: Buffer) => void): Promise<{ seconds: number; code: number | null }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', onChunk);
    child.on('error', reject);
    child.on('close', (code) => resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, code }));
  });
}

/**
 * The CLI's own speed, with the server out of the way: a stand-in that answers every page
 * at once with one real page of 100 companies, `rows / 100` times.
 */
async function cliCeiling(baseUrl: string, key: string, rows: number): Promise<number> {
  const res = await fetch(`${baseUrl}/companies?status=all&limit=100`, { headers: { authorization: `Bearer ${key}` } });
  const page = (await res.json()) as { data: unknown[] };
  const pages = Math.ceil(rows / page.data.length);
  const replay = createServer((req, reply) => {
    const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('cursor') ?? 0);
    const more = n + 1 < pages;
    reply.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${n}` });
    reply.end(JSON.stringify({ data: page.data, pagination: { limit: 100, has_more: more, next_cursor: more ? String(n + 1) : undefined }, meta: { request_id: `req_${n}` } }));
  });
  await new Promise<void>((r) => replay.listen(0, '127.0.0.1', r));
  try {
    const { port } = replay.address() as AddressInfo;
    const env: NodeJS.ProcessEnv = { ...process.env, BOLAG_BASE_URL: `http://127.0.0.1:${port}/api/public/v1`, BOLAG_API_KEY: key };
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await timeCli(env, pages * page.data.length);
      runs.push(r.rows / r.seconds);
    }
    return median(runs);
  } finally {
    await new Promise<void>((r) => replay.close(() => r()));
  }
}

async function timeCli(env: NodeJS.ProcessEnv, expected: number): Promise<{ rows: number; seconds: number }> {
  let rows = 0;
  const r = await exec(process.execPath, [BIN, 'search', '--all', '--status', 'all', '--format', 'jsonl', '--max', String(expected)], env, (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
  });
  if (r.code !== 0) throw new Error(`bolag search exited with ${r.code}`);
  return { rows, seconds: r.seconds };
}

/** The same pages with nothing but undici and JSON.parse, in a process of its own. */
const BARE_LOOP = `
import { Agent, request } from 'undici';
const [base, key, max] = process.argv.slice(1);
const dispatcher = new Agent({ keepAliveTimeout: 10000 });
let cursor, rows = 0;
for (;;) {
  const qs = new URLSearchParams({ status: 'all', limit: '100' });
  if (cursor) qs.set('cursor', cursor);
  const res = await request(base + '/companies?' + qs, { dispatcher, headers: { authorization: 'Bearer ' + key } });
  const body = JSON.parse(await res.body.text());
  rows += body.data.length;
  if (!body.pagination.has_more || rows >= Number(max)) break;
  cursor = body.pagination.next_cursor;
}
await dispatcher.close();
process.stdout.write(rows + '\\n');
`;

async function timeBare(baseUrl: string, key: string, expected: number): Promise<{ rows: number; seconds: number }> {
  let out = '';
  const r = await exec(process.execPath, ['--input-type=module', '-e', BARE_LOOP, baseUrl, key, String(expected)], process.env, (chunk) => {
    out += chunk.toString();
  });
  if (r.code !== 0) throw new Error(`the bare loop exited with ${r.code}`);
  return { rows: Number(out.trim()), seconds: r.seconds };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runCliBench(process.argv.slice(2));
}
