// Picks the store implementation for a location: a SQLite file by default; PostgreSQL
// (src/store/postgres/) is the next implementation behind the same interface.
import type { Store } from './store.js';

export async function openStore(opts: { dbPath?: string; databaseUrl?: string }): Promise<Store> {
  if (opts.databaseUrl) {
    throw new Error('PostgreSQL storage is not available yet; use --db PATH (SQLite).');
  }
  const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
  if (!opts.dbPath) throw new Error('A database path is required.');
  return openSqliteStore(opts.dbPath);
}
