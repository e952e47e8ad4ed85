// A server's write waits for a lock another connection holds without stopping its event loop,
// gets the lock once it is free, and gives up as SQLite would when it is never free.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import { writeTransaction } from '../../src/store/sqlite/write-transaction.js';
import { isStoreUnavailable } from '../../src/store/unavailable.js';
import { countTurns } from '../helpers/event-loop-turns.js';

let dir: string;
let server: Db;
/** Another writer on the same file (an import), on a connection of its own. */
let importer: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bolag-write-tx-'));
  const path = join(dir, 'bolag.db');
  server = openDatabase(path);
  server.exec('CREATE TABLE t (v INTEGER)');
  importer = new Database(path);
});

afterEach(() => {
  if (importer.inTransaction) importer.exec('ROLLBACK');
  importer.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('writeTransaction', () => {
  it('waits for the lock with the event loop turning, and writes once the other writer commits', async () => {
    importer.exec('BEGIN IMMEDIATE');
    importer.exec('INSERT INTO t VALUES (1)');
    // The other writer commits from a timer: only an event loop that turns lets it.
    setTimeout(() => importer.exec('COMMIT'), 150);
    const clock = countTurns();
    const value = await writeTransaction(server, () => {
      server.prepare('INSERT INTO t VALUES (2)').run();
      return server.prepare('SELECT count(*) FROM t').pluck().get() as number;
    });
    clock.stop();
    expect(value).toBe(2); // it saw the other writer's row: it ran after that commit
    expect(clock.turns).toBeGreaterThan(5);
    expect(server.inTransaction).toBe(false);
    expect(importer.prepare('SELECT v FROM t ORDER BY v').pluck().all()).toEqual([1, 2]);
  });

  it('gives up with SQLite busy error after the connection busy timeout', async () => {
    server.pragma('busy_timeout = 200');
    importer.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    const err = await writeTransaction(server, () => server.prepare('INSERT INTO t VALUES (3)').run()).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('SQLITE_BUSY');
    expect(isStoreUnavailable(err)).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    // The timeout is the connection's own again, and nothing was written.
    expect(server.pragma('busy_timeout', { simple: true })).toBe(200);
    importer.exec('ROLLBACK');
    expect(server.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
  });

  it('rolls back what fn wrote when it throws', async () => {
    const err = await writeTransaction(server, () => {
      server.prepare('INSERT INTO t VALUES (4)').run();
      throw new Error('no');
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('no');
    expect(server.inTransaction).toBe(false);
    expect(server.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
  });

  it('inside a transaction of the same connection, runs as its savepoint', async () => {
    server.exec('BEGIN');
    await writeTransaction(server, () => server.prepare('INSERT INTO t VALUES (5)').run());
    expect(server.inTransaction).toBe(true);
    server.exec('ROLLBACK');
    expect(server.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
  });
});
