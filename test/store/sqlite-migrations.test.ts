// The SQLite register's schema across releases: what an earlier release left behind is put
// right when the file is opened again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const indexNames = (path: string): string[] => {
  const db = openDatabase(path);
  try {
    return db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'companies'").pluck().all() as string[];
  } finally {
    db.close();
  }
};

describe('retired indexes', () => {
  it('an index a migration replaced, built again by an earlier release (a rollback), is gone at the next open', () => {
    const path = join(dir, 'register.db');
    const db = openDatabase(path);
    // As the release before migration 14 builds them.
    db.exec('CREATE INDEX companies_county ON companies (county_code)');
    db.exec('CREATE INDEX companies_municipality ON companies (municipality_code)');
    db.exec('CREATE INDEX companies_name ON companies (name_sort)');
    db.close();
    const names = indexNames(path);
    for (const retired of ['companies_county', 'companies_municipality', 'companies_name']) expect(names).not.toContain(retired);
    expect(names).toContain('companies_place');
  });
});

describe('several processes starting at once', () => {
  it('a process that must build an index while another holds the write lock longer than 5 s waits for it instead of failing its start', async () => {
    const path = join(dir, 'busy.db');
    const db = openDatabase(path);
    // As if a migration had just replaced it: the next process to open builds it.
    db.exec('DROP INDEX companies_place');
    db.close();
    // Another process holds the write lock for 6.5 s (as one building a large index does).
    const holder = execa(process.execPath, [
      '-e',
      `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(path)}); db.exec('BEGIN IMMEDIATE'); console.log('locked');
       setTimeout(() => { db.exec('COMMIT'); db.close(); }, 6500);`,
    ], { cwd: process.cwd() });
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    const names = indexNames(path);
    expect(names).toContain('companies_place');
    await holder;
  });
});
