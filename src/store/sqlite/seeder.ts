// Bulk load of a fresh register: indexes dropped, rows written batch by batch, the SNI,
// full-text and spatial indexes filled set-wise, the B-tree indexes built once at the end,
// and statistics gathered for the query planner.
import type { Company } from '../../core/company.js';
import { buildIndexesInBulk, CompanyWriter } from './company-writer.js';
import { type Db, dropCompanyIndexes, ensureCompanyIndexes } from './database.js';
import { CountTally } from './stats/count-tally.js';

export interface SeedProgress {
  (done: number, total: number, phase: 'rows' | 'indexes'): void;
}

export async function bulkLoadCompanies(
  db: Db,
  batches: AsyncIterable<readonly Company[]>,
  total: number,
  onProgress?: SeedProgress,
): Promise<number> {
  db.exec('DELETE FROM companies; DELETE FROM company_sni; DELETE FROM companies_fts; DELETE FROM companies_geo; DELETE FROM company_counts;');
  dropCompanyIndexes(db);
  db.pragma('synchronous = OFF');
  try {
    const writer = new CompanyWriter(db);
    const counts = new CountTally();
    let done = 0;
    const write = db.transaction((items: readonly Company[]) => {
      for (const c of items) counts.add(writer.insertRowOnly(c, ++done));
    });
    for await (const batch of batches) {
      write(batch);
      onProgress?.(done, total, 'rows');
    }
    onProgress?.(0, 1, 'indexes');
    db.transaction(() => {
      buildIndexesInBulk(db, { spatial: 'in-memory' }); // as the threaded seeder (bulk/load.ts)
      counts.flush(db);
    })();
    ensureCompanyIndexes(db);
    // A sample is enough for the planner's choices and keeps ANALYZE cheap on a million rows.
    db.pragma('analysis_limit = 2000');
    db.exec('ANALYZE');
    onProgress?.(1, 1, 'indexes');
    return done;
  } finally {
    db.pragma('synchronous = NORMAL');
    db.pragma('wal_checkpoint(TRUNCATE)');
  }
}
