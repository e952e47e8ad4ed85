// An import batch by batch commits its batches in windows: short (IMPORT_COMMIT_MS) while a
// server runs on the register, so that the server's writes get the lock in turn, and long
// (IMPORT_COMMIT_ALONE_MS) when none does, so that the pages the batches share are written once.
// Seen from another connection: PRAGMA data_version moves with each commit of another connection.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedRegister } from '../../src/app/seed-register.js';
import { planRecord } from '../../src/import/plan-record.js';
import { IMPORT_COMMIT_ALONE_MS, IMPORT_COMMIT_MS, type ImportRecord } from '../../src/store/import-types.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

let dir: string;
let path: string;
let store: SqliteStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bolag-commit-windows-'));
  path = join(dir, 'register.db');
  store = openSqliteStore(path);
  await seedRegister(store, { count: 40, seed: 'commit-windows' });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const PAUSE_MS = 40;

/** Renames companies one batch at a time, PAUSE_MS apart; how many commits another connection saw while they came. */
async function commitsWhileReading(renames: number): Promise<number> {
  const watcher = new Database(path, { readonly: true });
  const orgNrs = watcher.prepare('SELECT org_nr FROM companies ORDER BY rowid LIMIT ?').pluck().all(renames) as string[];
  expect(orgNrs).toHaveLength(renames);
  const version = () => watcher.pragma('data_version', { simple: true }) as number;
  let last = version();
  let commits = 0;
  const poll = setInterval(() => {
    const v = version();
    if (v !== last) commits++;
    last = v;
  }, 5);
  let seenWhileReading = -1;
  async function* batches(): AsyncGenerator<ImportRecord[]> {
    for (const [i, org_nr] of orgNrs.entries()) {
      yield [{ line: i + 1, data: { org_nr, name: `Omdöpt ${i} AB` } }];
      await sleep(PAUSE_MS);
    }
    seenWhileReading = commits; // before the import's last commit
  }
  try {
    const result = await store.companies.importRecords(batches(), planRecord, { atomic: false, batchSize: 1 });
    expect(result.updated).toBe(renames);
  } finally {
    clearInterval(poll);
    watcher.close();
  }
  return seenWhileReading;
}

describe('an import batch by batch, its commit windows', () => {
  it('are long while no server runs on the register: nothing committed until the end', async () => {
    // Well inside one window, should a busy machine stretch the pauses.
    expect(8 * PAUSE_MS).toBeLessThan(IMPORT_COMMIT_ALONE_MS / 5);
    expect(await commitsWhileReading(8)).toBe(0);
  });

  it('are short while a server is registered, whose writes then take turns', async () => {
    expect(16 * PAUSE_MS).toBeGreaterThan(IMPORT_COMMIT_MS * 2);
    const other = new Database(path);
    other.prepare('INSERT INTO incarnations (id, host, pid, started_at) VALUES (?, ?, ?, ?)').run('inc_test', 'host', 1, new Date().toISOString());
    other.close();
    expect(await commitsWhileReading(16)).toBeGreaterThanOrEqual(2);
  });

  it('close while the batches after a change are settled by their fingerprints alone', async () => {
    // Until 2026-11-27 a window a change opened stayed open through every batch after it that
    // wrote nothing (a week's unchanged lines), to the next change or the end of the file.
    const other = new Database(path);
    other.prepare('INSERT INTO incarnations (id, host, pid, started_at) VALUES (?, ?, ?, ?)').run('inc_test', 'host', 1, new Date().toISOString());
    other.exec('UPDATE companies SET sources = 1, bolagsverket_hash = rowid');
    other.pragma('busy_timeout = 0');
    const rows = other.prepare('SELECT rowid, org_nr FROM companies ORDER BY rowid').all() as { rowid: number; org_nr: string }[];
    const first = rows[0];
    // Unchanged lines: their fingerprints are the stored ones, so their data is never read.
    const unchanged = (line: number): ImportRecord[] =>
      rows.slice(1, 6).map((r) => ({ line, key: r.org_nr, fingerprint: r.rowid, get data(): Record<string, unknown> { throw new Error('read'); } }));
    const seen: { name: unknown; writable: boolean }[] = [];
    async function* batches(): AsyncGenerator<ImportRecord[]> {
      yield [{ line: 1, key: first.org_nr, fingerprint: 999_999, data: { org_nr: first.org_nr, name: 'Omdöpt AB' } }];
      const since = performance.now();
      for (let i = 0; performance.now() - since < IMPORT_COMMIT_MS * 3; i++) {
        await sleep(PAUSE_MS);
        yield unchanged(i + 2);
      }
      // More than a window after the change, with only unchanged batches since: committed, and
      // the write lock free for a server's writes.
      let writable = true;
      try {
        other.exec('BEGIN IMMEDIATE');
        other.exec('ROLLBACK');
      } catch {
        writable = false;
      }
      seen.push({ name: other.prepare('SELECT name FROM companies WHERE rowid = ?').pluck().get(first.rowid), writable });
      yield unchanged(999);
    }
    try {
      const result = await store.companies.importRecords(batches(), planRecord, { atomic: false, batchSize: 5, fingerprints: 'bolagsverket_hash' });
      expect(result.updated).toBe(1);
      expect(seen).toEqual([{ name: 'Omdöpt AB', writable: true }]);
    } finally {
      other.close();
    }
  });
});
