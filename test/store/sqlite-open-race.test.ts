// Processes opening a new SQLite file at the same moment (two `serve` units started together) all
// open it: switching a new file to WAL makes them race for its write lock, which SQLite refuses
// one of them at once with SQLITE_BUSY (database.ts, enterWal). Before, about one round in three
// of two processes failed to start with "database is locked".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../exports/built.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-open-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => ensureBuilt());

// Each process waits for the same instant, then opens the store (migrations included) and closes it.
const OPEN = `
  const { openSqliteStore } = await import(${JSON.stringify(join(ROOT, 'dist/src/store/sqlite/sqlite-store.js'))});
  const [path, at] = process.argv.slice(1);
  while (Date.now() < Number(at)) {}
  openSqliteStore(path).db.close();
`;

it('opens a new file from three processes at once, round after round', async () => {
  const failures: string[] = [];
  for (let round = 0; round < 15; round++) {
    const path = join(dir, `register-${round}.db`);
    const at = Date.now() + 400;
    const runs = await Promise.all([0, 1, 2].map(() => execa(process.execPath, ['--input-type=module', '-e', OPEN, path, String(at)], { reject: false })));
    for (const r of runs) if (r.exitCode !== 0) failures.push(`round ${round}: ${String(r.stderr).split('\n').find((l) => l.includes('Error')) ?? r.stderr}`);
  }
  expect(failures).toEqual([]);
}, 60_000);
