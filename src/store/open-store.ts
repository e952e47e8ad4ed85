// Picks the store implementation for a location: PostgreSQL for a database URL, else a SQLite file.
import type { Store, StoreLocation } from './store.js';

/**
 * `bulkReader`: a read-only connection for long scans on a worker thread (exports), with a
 * small page cache and no memory map (SQLite), or a small pool (PostgreSQL), so that reading the
 * whole register stays out of memory.
 */
export async function openStore(opts: StoreLocation & { bulkReader?: boolean }): Promise<Store> {
  if (opts.databaseUrl) {
    const { openPgStore } = await import('./postgres/pg-store.js');
    return openPgStore(opts.databaseUrl, { bulkReader: opts.bulkReader });
  }
  const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
  if (!opts.dbPath) throw new Error('A database path is required.');
  return openSqliteStore(opts.dbPath, { bulkReader: opts.bulkReader, exportDir: opts.exportDir });
}
