// One process changes the register's schema in bursts (as an import's first load drops and builds
// indexes, and a starting process migrates) while this one opens the register, prepares and runs
// statements over the full-text and spatial indexes. None of them may fail: before
// schema-races.ts, a dozen in a few seconds failed with SQLITE_SCHEMA ("vtable constructor failed:
// companies_fts"), and two first loads started together failed so in the full suite.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'bolag-schema-races-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RACE_MS = 4000;

// Bursts of five index changes, then a short pause: what another process's DDL looks like.
const CHANGE_SCHEMA = `
  const { default: Database } = await import(${JSON.stringify(join(ROOT, 'node_modules/better-sqlite3/lib/index.js'))});
  const [path, until] = process.argv.slice(1);
  const db = new Database(path);
  db.pragma('busy_timeout = 5000');
  let changes = 0;
  while (Date.now() < Number(until)) {
    for (let k = 0; k < 5; k++) {
      db.exec('CREATE INDEX IF NOT EXISTS race_probe ON companies (name)');
      db.exec('DROP INDEX race_probe');
      changes += 2;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30);
  }
  console.log(changes);
`;

it('statements over the virtual tables do not fail while another process changes the schema', async () => {
  const path = join(dir, 'register.db');
  openDatabase(path).close();
  const until = Date.now() + RACE_MS;
  const other = execa(process.execPath, ['--input-type=module', '-e', CHANGE_SCHEMA, path, String(until)]);

  const kept = openDatabase(path);
  const search = kept.prepare("SELECT count(*) FROM companies_fts WHERE companies_fts MATCH 'ab'").pluck();
  const near = kept.prepare('SELECT rowid FROM companies_geo WHERE min_lat > 0');
  const failures = new Map<string, number>();
  let rounds = 0;
  while (Date.now() < until) {
    let db: ReturnType<typeof openDatabase> | undefined;
    try {
      db = openDatabase(path);
      db.prepare('INSERT INTO companies_fts (rowid, name, industry, org_nr) VALUES (?, ?, ?, ?)');
      db.exec("INSERT INTO companies_fts (companies_fts) VALUES ('optimize')");
      for (let k = 0; k < 20; k++) {
        search.get();
        for (const _ of near.iterate());
      }
    } catch (e) {
      const line = `${(e as { code?: string }).code} ${(e as Error).message}`;
      failures.set(line, (failures.get(line) ?? 0) + 1);
    } finally {
      db?.close();
    }
    rounds++;
  }
  kept.close();
  const changes = Number((await other).stdout);
  expect(changes).toBeGreaterThan(20);
  expect(rounds).toBeGreaterThan(20);
  expect(Object.fromEntries(failures)).toEqual({});
}, 30_000);
