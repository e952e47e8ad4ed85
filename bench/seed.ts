// npm run bench -- seed [count]: rows/s and database size for a fresh register
// (default 1,200,000 companies, the size of the real register). Goal: < 60 s, < 1.5 GB.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SEED_COUNT, seedRegister } from '../src/seed/seed-register.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';

export async function run(args: string[] = []): Promise<void> {
  const count = args[0] ? Number(args[0]) : DEFAULT_SEED_COUNT;
  const dir = mkdtempSync(join(tmpdir(), 'bolag-bench-seed-'));
  const path = join(dir, 'register.db');
  const store = openSqliteStore(path);
  const started = process.hrtime.bigint();
  let rowsDone = 0n;
  await seedRegister(store, {
    count,
    onProgress: (done, _total, phase) => {
      if (phase === 'rows' && done === count) rowsDone = process.hrtime.bigint();
    },
  });
  const ended = process.hrtime.bigint();
  await store.close();
  const seconds = Number(ended - started) / 1e9;
  const rowSeconds = Number(rowsDone - started) / 1e9;
  const bytes = statSync(path).size;
  console.log(`seed: ${count.toLocaleString('en')} companies`);
  console.log(`  total        ${seconds.toFixed(1)} s  (${Math.round(count / seconds).toLocaleString('en')} rows/s)`);
  console.log(`  rows phase   ${rowSeconds.toFixed(1)} s, indexes and ANALYZE ${(seconds - rowSeconds).toFixed(1)} s`);
  console.log(`  database     ${(bytes / 1024 ** 3).toFixed(2)} GiB (${(bytes / count).toFixed(0)} bytes/company)`);
  console.log(`  goal         < 60 s and < 1.5 GB: ${seconds < 60 && bytes < 1.5e9 ? 'met' : 'NOT met'}`);
  rmSync(dir, { recursive: true, force: true });
}
