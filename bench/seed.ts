// npm run bench -- seed [count] [--database-url URL]: rows/s and database size for a fresh
// register (default 1,200,000 companies, the size of the real register). Goal: < 60 s, < 1.5 GB.
// SQLite by default (a temporary file); with --database-url (or DATABASE_URL) PostgreSQL, into
// the URL's schema (`?schema=…`, default bench_pg), replacing the register there.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SEED_COUNT, seedRegister } from '../src/app/seed-register.js';
import type { Store } from '../src/store/store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { benchDatabaseUrl } from './lib/pg-url.js';

export async function run(args: string[] = []): Promise<void> {
  const { url, rest } = benchDatabaseUrl(args);
  const count = rest[0] ? Number(rest[0]) : DEFAULT_SEED_COUNT;
  let store: Store;
  let size: () => Promise<number>;
  let cleanup = () => {};
  if (url) {
    const { openPgStore } = await import('../src/store/postgres/pg-store.js');
    const pg = await openPgStore(url);
    store = pg;
    size = async () => (await pg.companies.stats()).database_bytes;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'bolag-bench-seed-'));
    const path = join(dir, 'register.db');
    store = openSqliteStore(path);
    size = async () => statSync(path).size;
    cleanup = () => rmSync(dir, { recursive: true, force: true });
  }
  const started = process.hrtime.bigint();
  let rowsDone = 0n;
  await seedRegister(store, {
    count,
    onProgress: (done, _total, phase) => {
      if (phase === 'rows' && done === count) rowsDone = process.hrtime.bigint();
    },
  });
  const ended = process.hrtime.bigint();
  const bytes = await size();
  await store.close();
  const seconds = Number(ended - started) / 1e9;
  const rowSeconds = Number(rowsDone - started) / 1e9;
  console.log(`seed: ${count.toLocaleString('en')} companies into ${url ? 'PostgreSQL' : 'SQLite'}`);
  console.log(`  total        ${seconds.toFixed(1)} s  (${Math.round(count / seconds).toLocaleString('en')} rows/s)`);
  console.log(`  rows phase   ${rowSeconds.toFixed(1)} s, indexes and ANALYZE ${(seconds - rowSeconds).toFixed(1)} s`);
  console.log(`  database     ${(bytes / 1024 ** 3).toFixed(2)} GiB (${(bytes / count).toFixed(0)} bytes/company)`);
  console.log(`  goal         < 60 s and < 1.5 GB: ${seconds < 60 && bytes < 1.5e9 ? 'met' : 'NOT met'}`);
  cleanup();
}
