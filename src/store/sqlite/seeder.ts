// Bulk load of a fresh register: indexes dropped, rows written in large transactions,
// indexes built once at the end, statistics gathered for the query planner.
import type { Company } from '../../core/company.js';
import { CompanyWriter } from './company-writer.js';
import { type Db, dropCompanyIndexes, ensureCompanyIndexes } from './database.js';

export interface SeedProgress {
  (done: number, total: number, phase: 'rows' | 'indexes'): void;
}

export function bulkLoadCompanies(db: Db, companies: Iterable<Company>, total: number, onProgress?: SeedProgress): number {
  db.exec('DELETE FROM companies; DELETE FROM company_sni; DELETE FROM companies_fts; DELETE FROM companies_geo;');
  dropCompanyIndexes(db);
  db.pragma('synchronous = OFF');
  const writer = new CompanyWriter(db);
  const batch: Company[] = [];
  let done = 0;
  const flush = db.transaction((items: Company[]) => {
    for (const c of items) writer.insert(c, ++done);
  });
  for (const company of companies) {
    batch.push(company);
    if (batch.length === 20_000) {
      flush(batch);
      batch.length = 0;
      onProgress?.(done, total, 'rows');
    }
  }
  flush(batch);
  onProgress?.(done, total, 'rows');
  onProgress?.(0, 1, 'indexes');
  ensureCompanyIndexes(db);
  db.exec("INSERT INTO companies_fts (companies_fts) VALUES ('optimize')");
  db.exec('ANALYZE');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_checkpoint(TRUNCATE)');
  onProgress?.(1, 1, 'indexes');
  return done;
}
