// The local register: the same server, in-process on a loopback port, over the embedded
// database under BOLAG_HOME (or the one given with --db, or PostgreSQL with --database-url).
// Its key is kept on disk (mode 0600).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { makeFolder } from '../core/make-folder.js';
import { dirname, join } from 'node:path';
import { startServer } from '../server/start.js';
import { bolagHome, registerDbPath } from './paths.js';
import { DEFAULT_SEED_COUNT } from '../app/seed-register.js';
import { issueKey } from '../server/api-keys.js';
import { openStore } from '../store/open-store.js';
import type { StoreLocation } from '../store/store.js';
import { SCOPES } from '../core/values.js';

export interface LocalRegister {
  baseUrl: string;
  apiKey: string;
  location: StoreLocation;
  close(): Promise<void>;
}

export async function startLocalRegister(
  opts: {
    onProgress?: (done: number, total: number, phase: 'rows' | 'indexes') => void;
    /** Another bolag process is creating the register; this one waits for it. */
    onWait?: () => void;
    env?: NodeJS.ProcessEnv;
    /** Default: the register under BOLAG_HOME. */
    location?: StoreLocation;
    /** Where the local account's key is kept (default: `local-key` in BOLAG_HOME). */
    keyFile?: string;
  } = {},
): Promise<LocalRegister> {
  const env = opts.env ?? process.env;
  const location = opts.location ?? { dbPath: registerDbPath(env) };
  const keyFile = opts.keyFile ?? join(bolagHome(env), 'local-key');
  const seedCount = env.BOLAG_SEED_COUNT ? Number(env.BOLAG_SEED_COUNT) : DEFAULT_SEED_COUNT;
  // PostgreSQL is the database `bolag serve` processes share: its background work (exports,
  // webhooks, sweeping) is theirs, with their settings and --public-url, not a CLI command's
  // defaults for as long as it runs (an export worker here would also take the servers' queued
  // exports and hand them back when the command ends). So is a SQLite file a `bolag serve` runs
  // on (`bolag --db register.db …` beside it): an export finished here announced a download_url
  // on this command's loopback port, dead once it ended.
  const workers = location.databaseUrl ? false : 'unless-served';
  const server = await startServer({ port: 0, host: '127.0.0.1', ...location, seedCount, onSeedProgress: opts.onProgress, onSeedWait: opts.onWait, rateLimit: { max: 0, windowMs: 60_000 }, docs: false, backgroundUpkeep: false, workers });
  let apiKey = server.apiKey;
  makeFolder(dirname(keyFile));
  if (apiKey) writeFileSync(keyFile, `${apiKey}\n`, { mode: 0o600 });
  else if (existsSync(keyFile)) apiKey = readFileSync(keyFile, 'utf8').trim();
  if (!apiKey) {
    // The register was created by `bolag serve`, whose key was printed, not kept: issue one for local use.
    const store = await openStore(location);
    try {
      apiKey = (await issueKey(store, { account: 'local', plan: 'pro', scopes: [...SCOPES] })).key;
    } finally {
      await store.close();
    }
    writeFileSync(keyFile, `${apiKey}\n`, { mode: 0o600 });
  }
  return { baseUrl: server.url, apiKey, location, close: server.close };
}
