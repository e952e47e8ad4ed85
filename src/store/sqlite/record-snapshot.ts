// The register as it was when an import took the write lock, for a thread that compares our
// JSONL's lines with it while the importing thread writes (src/import/ours/match-thread.ts): a
// connection of its own, read only, in one read transaction for as long as the import runs.
// Nothing else writes the register meanwhile (the import holds the lock), so this snapshot is
// the register the import started from.
import type { ImportRecord } from '../import-types.js';
import type { CompanyRow } from './company-row.js';
import { type Db, openDatabase } from './database.js';
import { type StoredRecordReader, storedRecordReader } from './stored-records.js';

export class RecordSnapshot {
  private readonly db: Db;
  private readonly read: StoredRecordReader;
  private pinned = false;

  constructor(dbPath: string) {
    this.db = openDatabase(dbPath, { readonly: true });
    // Its pages are read about once, as the importer's are: a small cache, no memory map.
    this.db.pragma('cache_size = -4096');
    this.db.pragma('mmap_size = 0');
    this.read = storedRecordReader(this.db);
  }

  /** Takes the snapshot: reads from now on see the register as it is now. */
  pin(): void {
    if (this.pinned) return;
    this.db.exec('BEGIN');
    // A read transaction starts at its first read.
    this.db.prepare('SELECT 1 FROM companies LIMIT 1').get();
    this.pinned = true;
  }

  /** As storedRecordReader, from the snapshot. */
  records(batch: readonly ImportRecord[], heads: readonly (string | null)[]): Map<string, CompanyRow> {
    if (!this.pinned) throw new Error('RecordSnapshot.records before pin');
    return this.read(batch, heads);
  }

  close(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.db.close();
  }
}
