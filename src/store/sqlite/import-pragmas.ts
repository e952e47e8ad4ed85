// The connection's settings while an import runs, and the register's own again when it ends.
import type { Db } from './database.js';

/** The page cache while importing: 16 MiB (negative: in KiB). */
const IMPORT_CACHE_SIZE = -16384;

/** Sets the import's settings; returns what puts the connection's back. */
export function importPragmas(db: Db): () => void {
  // The register is read once, a batch at a time: through the page cache, not a memory map whose
  // touched pages would all count as the importer's memory.
  const mmapSize = db.pragma('mmap_size', { simple: true }) as number;
  db.pragma('mmap_size = 0');
  // A small page cache: the import reads each page about once, and every megabyte of cache is a
  // megabyte of the importer's memory (64 MB of 366 at the peak of SCB's first load).
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = ${IMPORT_CACHE_SIZE}`);
  // Index builds and large sorts spill to temporary files rather than growing in memory.
  db.pragma('temp_store = FILE');
  // Fewer, larger checkpoints: a page the import writes in many batches is copied back once.
  db.pragma('wal_autocheckpoint = 8192');
  return () => {
    db.pragma(`mmap_size = ${mmapSize}`);
    db.pragma(`cache_size = ${cacheSize}`);
    db.pragma('temp_store = MEMORY');
    db.pragma('wal_autocheckpoint = 1000');
  };
}
