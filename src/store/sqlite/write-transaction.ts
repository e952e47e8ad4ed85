// A write transaction whose wait for the write lock does not stop the event loop. SQLite's busy
// timeout waits inside the call: a server on a file that an import was writing stood still for
// each of its workers' writes in turn (each waiting out one of the import's transactions, a
// quarter of a second), and searches waited behind them (p50 400 ms, stalls of seconds). Here the
// lock is tried without waiting, and tried again after a few milliseconds, the event loop
// turning in between; the import leaves a few milliseconds between its transactions for this.
import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import type { Db } from './database.js';

/** The longest pause between two tries: shorter than the import's pause between transactions. */
const MAX_PAUSE_MS = 4;

/**
 * Runs `fn` (synchronous: nothing else on this connection may run inside the transaction) in an
 * IMMEDIATE transaction, and commits it; rolls back if it throws. Gives up as SQLite would, with
 * its SQLITE_BUSY error, once the connection's busy timeout has passed.
 */
export async function writeTransaction<T>(db: Db, fn: () => T): Promise<T> {
  const sql = statementsOf(db);
  const timeoutMs = db.pragma('busy_timeout', { simple: true }) as number;
  const deadline = performance.now() + timeoutMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    // A transaction left open across an await by other code on this connection: as
    // db.transaction() would, in a savepoint of it (it holds the lock already).
    if (db.inTransaction) return db.transaction(fn)();
    const busy = tryBegin(db, sql.begin, timeoutMs);
    if (!busy) break;
    if (performance.now() + pause > deadline) throw busy;
    await sleep(pause);
  }
  try {
    const result = fn();
    sql.commit.run();
    return result;
  } catch (e) {
    if (db.inTransaction) sql.rollback.run();
    throw e;
  }
}

/** BEGIN IMMEDIATE without waiting: SQLite's SQLITE_BUSY error when another connection holds the write lock. */
function tryBegin(db: Db, begin: Database.Statement, timeoutMs: number): Error | null {
  // Through db.pragma each time: SQLite applies a busy_timeout pragma when it is prepared, so a
  // prepared one run again changes nothing.
  db.pragma('busy_timeout = 0');
  try {
    begin.run();
    return null;
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_BUSY') return e as Error;
    throw e;
  } finally {
    db.pragma(`busy_timeout = ${timeoutMs}`);
  }
}

const statements = new WeakMap<Db, { begin: Database.Statement; commit: Database.Statement; rollback: Database.Statement }>();

function statementsOf(db: Db) {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') }));
  return s;
}

/**
 * BEGIN IMMEDIATE however long another process holds the write lock (a long all-or-nothing
 * import, say): each try waits out the busy timeout inside the call, and `onWait` is called at
 * each that ran out. For an import, whose own work stops anyway while it waits; an import failed
 * with "database is locked" after 5 s.
 */
export function beginImmediateWaiting(db: Db, onWait: () => void): void {
  for (;;) {
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
      onWait();
    }
  }
}
