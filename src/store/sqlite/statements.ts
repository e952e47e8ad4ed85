// Prepared statements kept by SQL text: preparing costs more than running a small statement,
// and the hot paths (job claims, deliveries, outbox reads) run thousands of times a second.
import type Database from 'better-sqlite3';
import type { Db } from './database.js';

export function statementCache(db: Db): (sql: string) => Database.Statement {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let stmt = cache.get(sql);
    if (!stmt) cache.set(sql, (stmt = db.prepare(sql)));
    return stmt;
  };
}
