// An import bounds the write-ahead log between its transactions: past the bound the log is
// truncated once no reader holds an older snapshot, and left for the next commit when one does.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import { boundWal } from '../../src/store/sqlite/wal-bound.js';

let dir: string;
let path: string;
let importer: Db;
let reader: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bolag-wal-bound-'));
  path = join(dir, 'bolag.db');
  importer = openDatabase(path);
  importer.pragma('wal_autocheckpoint = 0');
  importer.exec('CREATE TABLE t (v TEXT)');
  reader = new Database(path, { readonly: true });
});

afterEach(() => {
  if (reader.inTransaction) reader.exec('COMMIT');
  reader.close();
  importer.close();
  rmSync(dir, { recursive: true, force: true });
});

const walBytes = () => statSync(`${path}-wal`).size;
const write = (rows: number) => importer.transaction(() => {
  const insert = importer.prepare('INSERT INTO t VALUES (?)');
  for (let i = 0; i < rows; i++) insert.run('x'.repeat(500));
})();

describe('boundWal', () => {
  it('leaves a log under the bound alone', () => {
    write(100);
    const before = walBytes();
    expect(boundWal(importer, before + 1)).toBe(false);
    expect(walBytes()).toBe(before);
  });

  it('truncates a log past the bound, with every row kept', () => {
    write(2000);
    expect(walBytes()).toBeGreaterThan(100_000);
    expect(boundWal(importer, 100_000)).toBe(true);
    expect(walBytes()).toBe(0);
    expect(reader.prepare('SELECT count(*) FROM t').pluck().get()).toBe(2000);
  });

  it('gives up for now while a reader holds an older snapshot, and keeps the busy timeout', () => {
    write(10);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM t').pluck().get(); // its snapshot: 10 rows
    write(2000);
    expect(boundWal(importer, 100_000, 0)).toBe(false);
    expect(walBytes()).toBeGreaterThan(100_000);
    expect(importer.pragma('busy_timeout', { simple: true })).toBe(5000);
    reader.exec('COMMIT');
    expect(boundWal(importer, 100_000, 0)).toBe(true);
    expect(walBytes()).toBe(0);
  });

  it('after a try that found an older reader, does not try again for a while', () => {
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM t').pluck().get();
    write(2000);
    expect(boundWal(importer, 100_000, 60_000)).toBe(false);
    reader.exec('COMMIT');
    expect(boundWal(importer, 100_000, 60_000)).toBe(false); // the reader is gone, but not yet tried
    expect(walBytes()).toBeGreaterThan(100_000);
  });
});
