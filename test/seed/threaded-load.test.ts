// The register loaded on worker threads (the compiled loader, store/sqlite/bulk/) is the same,
// row for row and index for index, whatever the number of threads, and the same as the one
// loaded through the generic bulkLoad of generated batches (what other stores get).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBatches } from '../../src/seed/generate-batches.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { COUNTS_FROM_TABLE_SQL } from '../../src/store/sqlite/stats/count-keys.js';
import { ensureBuilt, ROOT } from '../exports/built.js';
import { digestOf, indexAnswers } from '../helpers/index-answers.js';

const COUNT = 45_000; // three chunks, the last one short
const dir = mkdtempSync(join(tmpdir(), 'bolag-threaded-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Loader {
  canLoadInThreads(db: unknown): boolean;
  loadInThreads(db: unknown, seed: string, count: number, threads: number): Promise<number>;
}

/** What a register holds, as digests: rows, statistics, and answers of each index. */
function fingerprint(path: string): Record<string, string> {
  const store = openSqliteStore(path);
  const db = store.db;
  const digest = digestOf(db);
  const out = {
    rows: digest('SELECT * FROM companies ORDER BY rowid'),
    counts: digest('SELECT * FROM company_counts WHERE n != 0 ORDER BY 1, 2, 3'),
    ...indexAnswers(db),
    // Around Stockholm, where the generated register is densest.
    geoStockholm: digest('SELECT rowid FROM companies_geo WHERE min_lat >= 59 AND max_lat <= 60 AND min_lng >= 17.5 AND max_lng <= 18.5 ORDER BY rowid'),
  };
  db.close();
  return out;
}

describe('the register loaded on threads', () => {
  let loader: Loader;
  beforeAll(async () => {
    await ensureBuilt();
    loader = (await import(join(ROOT, 'dist/src/store/sqlite/bulk/load.js'))) as Loader;
  });

  it('is the same on one thread, on three, and through bulkLoad', async () => {
    const prints: Record<string, string>[] = [];
    for (const threads of [1, 3]) {
      const path = join(dir, `threads-${threads}.db`);
      const store = openSqliteStore(path);
      expect(loader.canLoadInThreads(store.db)).toBe(true);
      expect(await loader.loadInThreads(store.db, 'threads', COUNT, threads)).toBe(COUNT);
      await store.close();
      prints.push(fingerprint(path));
    }
    const path = join(dir, 'batches.db');
    const store = openSqliteStore(path);
    await store.companies.bulkLoad(generateBatches('threads', COUNT), COUNT);
    await store.close();
    prints.push(fingerprint(path));
    expect(prints[0].integrity).toBe('["ok"]');
    expect(prints[0].rtree).toBe('ok');
    expect(prints[1]).toEqual(prints[0]);
    expect(prints[2]).toEqual(prints[0]);
  }, 300_000); // three loads of 45,000 companies: a while on a busy machine

  it('keeps statistics equal to counting the table (the tallies of the loader threads)', () => {
    const store = openSqliteStore(join(dir, 'threads-3.db'));
    const counts = () => store.db.prepare('SELECT dim, value, status, n FROM company_counts WHERE n != 0 ORDER BY 1, 2, 3').raw(true).all();
    const tallied = counts();
    expect(tallied.length).toBeGreaterThan(1000);
    store.db.exec(`DELETE FROM company_counts; ${COUNTS_FROM_TABLE_SQL}`);
    expect(counts()).toEqual(tallied);
    store.db.close();
  });
});
