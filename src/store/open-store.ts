// Picks the store implementation for a location: a SQLite file by default; PostgreSQL
// (src/store/postgres/) is the next implementation behind the same interface.
import type { Store, StoreLocation } from './store.js';

/**
 * `bulkReader`: a read-only connection for long scans on a worker thread (exports), with a
 * small page cache and no memory map, so that reading the whole register stays out of memory.
 */
export async function openStore(opts: StoreLocation & { bulkReader?: boolean }): Promise<Store> {
  if (opts.databaseUrl) {
    throw new Error('PostgreSQL storage is not available yet; use --db PATH (SQLite).');
  }
  const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
  if (!opts.dbPath) throw new Error('A database path is required.');
  return openSqliteStore(opts.dbPath, { bulkReader: opts.bulkReader });
}
