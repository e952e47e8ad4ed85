// For the kill tests: the built binary (`bolag serve`, `bolag db …`) on a throwaway database of
// either kind: a SQLite file, or a fresh PostgreSQL schema when DATABASE_URL is set.
import { execa, type ResultPromise } from 'execa';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { BIN, cleanEnv } from '../cli/helpers.js';
import { DATABASE_URL, dropSchema, freshSchemaUrl, PG_SKIP_REASON } from '../helpers/pg.js';

export type Kind = 'sqlite' | 'postgres';

export interface FaultDatabase {
  kind: Kind;
  /** The global flag that points a command at it. */
  args: string[];
  location: { dbPath: string } | { databaseUrl: string };
  drop(): Promise<void>;
}

export function faultDatabase(kind: Kind, dir: string): FaultDatabase {
  if (kind === 'postgres') {
    const { url, schema } = freshSchemaUrl();
    return { kind, args: ['--database-url', url], location: { databaseUrl: url }, drop: () => dropSchema(schema) };
  }
  const dbPath = join(dir, 'register.db');
  return { kind, args: ['--db', dbPath], location: { dbPath }, drop: async () => undefined };
}

/** Runs `body` once per database kind: SQLite always, PostgreSQL when DATABASE_URL is set. */
export function forEachKind(body: (kind: Kind) => void): void {
  describe('SQLite', () => body('sqlite'));
  if (DATABASE_URL) describe('PostgreSQL', () => body('postgres'));
  else describe('PostgreSQL', () => it.skip(PG_SKIP_REASON, () => {}));
}

export interface Serving {
  proc: ResultPromise;
  /** The API base URL it listens on. */
  url: string;
  /** The local account's key, printed on the first start only. */
  key?: string;
  stderr(): string;
}

/** `bolag serve` on a free port; resolves once it listens (and, on a first start, has printed its key). */
export async function serve(db: FaultDatabase, home: string, opts: { first?: boolean; args?: string[] } = {}): Promise<Serving> {
  const extra = opts.args ?? [];
  const proc = execa('node', [BIN, 'serve', '--port', '0', ...db.args, ...extra], {
    reject: false,
    extendEnv: false,
    env: cleanEnv({ BOLAG_HOME: home }),
    buffer: false,
  });
  let out = '';
  let err = '';
  proc.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    const url = /listening on (\S+)/.exec(err)?.[1];
    if (url && (!opts.first || out.includes('\n'))) return { proc, url, key: out.trim().split('\n')[0] || undefined, stderr: () => err };
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`bolag serve did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Kills with SIGKILL and waits until the process is gone. */
export async function kill9(s: { proc: ResultPromise }): Promise<void> {
  s.proc.kill('SIGKILL');
  await s.proc;
}

export function bolagDb(db: FaultDatabase, home: string, args: string[]): ResultPromise {
  return execa('node', [BIN, 'db', ...args, ...db.args], { reject: false, extendEnv: false, env: cleanEnv({ BOLAG_HOME: home }) });
}
