// Another process changing the register's schema (an import's first load dropping and building
// indexes, a starting process's migrations) makes this connection's statements fail now and then
// with SQLITE_SCHEMA, although nothing is wrong with them. SQLite prepares a statement again after
// a schema change, but at prepare time only once, and a virtual table's constructor (the full-text
// and spatial indexes read their own tables to connect) reads in a transaction of its own, which
// may see a schema newer still: "vtable constructor failed: companies_fts". Two first loads started
// together failed so about one run in three of the full test suite; a text search in one process
// failed beside another's bursts of index changes (59 of 1.7 million, measured). Tried again here:
// a statement that fails so has done nothing yet.
import type Database from 'better-sqlite3';
import type { Db } from './database.js';

/** More than SQLite's own retries after a schema change (SQLITE_MAX_SCHEMA_RETRY, 50). */
const TRIES = 100;
/** Statements over a virtual table: their constructor is the one SQLite does not retry enough. */
const OVER_VIRTUAL_TABLE = /\bcompanies_(fts|geo)\b/;

function isSchemaRace(e: unknown): boolean {
  return (e as { code?: string } | null)?.code === 'SQLITE_SCHEMA';
}

function retried<T>(fn: () => T): T {
  for (let i = 1; ; i++) {
    try {
      return fn();
    } catch (e) {
      if (!isSchemaRace(e) || i >= TRIES) throw e;
    }
  }
}

/**
 * This connection's prepare, pragma and exec of one statement, tried again on a schema race;
 * statements over a virtual table also when they run. Several statements in one exec are not: the
 * earlier ones may have run.
 */
export function guardSchemaRaces(db: Db): void {
  const prepare = db.prepare.bind(db);
  const exec = db.exec.bind(db);
  const pragma = db.pragma.bind(db);
  db.pragma = ((source: string, options?: Database.PragmaOptions) => retried(() => pragma(source, options))) as Db['pragma'];
  db.prepare = ((sql: string) => {
    const stmt = retried(() => prepare(sql));
    return OVER_VIRTUAL_TABLE.test(sql) ? guardStatement(stmt) : stmt;
  }) as Db['prepare'];
  db.exec = (sql: string) => (isOneStatement(sql) ? retried(() => exec(sql)) : exec(sql));
}

function isOneStatement(sql: string): boolean {
  return !sql.trim().replace(/;$/, '').includes(';');
}

function guardStatement(stmt: Database.Statement): Database.Statement {
  const { run, get, all } = stmt;
  stmt.run = (...args: unknown[]) => retried(() => run.apply(stmt, args));
  stmt.get = (...args: unknown[]) => retried(() => get.apply(stmt, args));
  stmt.all = (...args: unknown[]) => retried(() => all.apply(stmt, args));
  // An iterator fails at its first row or not at all: that one is tried again, with a new iterator.
  const { iterate } = stmt;
  stmt.iterate = (...args: unknown[]) => {
    let it!: IterableIterator<unknown>;
    let first!: IteratorResult<unknown>;
    retried(() => {
      it = iterate.apply(stmt, args);
      first = it.next();
    });
    let started = false;
    const rest: IterableIterator<unknown> = {
      next: () => (started ? it.next() : ((started = true), first)),
      return: (value?: unknown) => it.return?.(value) ?? { done: true, value },
      [Symbol.iterator]: () => rest,
    };
    return rest;
  };
  return stmt;
}
