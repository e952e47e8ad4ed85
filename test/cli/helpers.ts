// For the CLI's end-to-end tests: the built binary (node bin/bolag.js, run with execa) and a
// real server on a loopback port over a throwaway database.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type Options, type ResultPromise } from 'execa';
import { afterAll, beforeAll } from 'vitest';
import { ensureBuilt } from '../exports/built.js';
import { startServer, type RunningServer, type StartOptions } from '../../src/server/start.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'bolag.js');
export const BUILT = existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'));

export interface CliServer {
  url: string;
  key: string;
  dir: string;
  server: RunningServer;
  close(): Promise<void>;
}

export async function startCliServer(opts: Partial<StartOptions> = {}): Promise<CliServer> {
  const dir = mkdtempSync(join(tmpdir(), 'bolag-cli-test-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dbPath: join(dir, 'register.db'),
    seedCount: 3000,
    rateLimit: { max: 0, windowMs: 60_000 },
    workers: false,
    ...opts,
  });
  if (!server.apiKey) throw new Error('the test server did not create a key');
  return {
    url: server.url,
    key: server.apiKey,
    dir,
    server,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A clean environment: no profile, no BOLAG_* from the developer's shell, a private BOLAG_HOME. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), LANG: 'C.UTF-8' };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

export function bolag(args: readonly string[], opts: Options & { env?: Record<string, string> } = {}): ResultPromise {
  return execa('node', [BIN, ...args], { reject: false, extendEnv: false, stripFinalNewline: false, ...opts, env: opts.env ?? cleanEnv() });
}

/** Env that points the binary at a server. */
export function serverEnv(s: { url: string; key: string }, extra: Record<string, string | undefined> = {}): Record<string, string> {
  return cleanEnv({ BOLAG_BASE_URL: s.url, BOLAG_API_KEY: s.key, BOLAG_HOME: join(tmpdir(), 'bolag-cli-test-home-unused'), ...extra });
}

export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Pages through GET /companies by hand, with fetch, the way a script would. */
export async function pageByHand(s: { url: string; key: string }, query: Record<string, string>): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (;;) {
    const qs = new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${s.url}/companies?${qs}`, { headers: { authorization: `Bearer ${s.key}` } });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { data: Record<string, unknown>[]; pagination: { has_more: boolean; next_cursor?: string } };
    rows.push(...body.data);
    if (!body.pagination.has_more) return rows;
    cursor = body.pagination.next_cursor;
  }
}

/**
 * For a test file that runs the built binary: builds it if need be, and gives a scratch folder
 * made before the file's tests and removed after them. Call at the top level of the file.
 */
export function binaryScratch(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), prefix));
  }, 180_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!dir) throw new Error('binaryScratch: used before its beforeAll');
    return dir;
  };
}

