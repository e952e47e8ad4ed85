// Prepared statements by SQL text, per connection. The planner writes SQL per query shape
// (which filters, which driver, which sort), so the same few hundred texts recur; preparing
// one costs more than running a small search, so they are kept (least recently used out).
import type Database from 'better-sqlite3';
import type { Db } from '../database.js';

const MAX_STATEMENTS = 500;
const caches = new WeakMap<Db, Map<string, Database.Statement>>();

export function prepared(db: Db, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (stmt) {
    cache.delete(sql);
  } else {
    stmt = db.prepare(sql);
    if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value as string);
  }
  cache.set(sql, stmt);
  return stmt;
}

/** Rows as arrays (cheaper than objects) for the planner's narrow (rowid, value) reads. */
export function rawAll(db: Db, sql: string, params: readonly unknown[]): unknown[][] {
  return prepared(db, sql).raw(true).all(...params) as unknown[][];
}

export function pluckOne(db: Db, sql: string, params: readonly unknown[]): unknown {
  return prepared(db, sql).pluck(true).get(...params);
}
