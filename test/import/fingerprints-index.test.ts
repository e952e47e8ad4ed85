// The covering index of line fingerprints (SQLite) is made by the first open-data import that
// reads fingerprints, not by the seeder: a generated register has none to read, and building it
// cost a second of every first start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { seedRegister } from '../../src/app/seed-register.js';
import { importOpenData } from '../../src/import/import-open-data.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'open-data');
const dir = mkdtempSync(join(tmpdir(), 'bolag-fingerprints-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('is absent from a seeded register and made by the open-data imports, which then settle unchanged lines from it', async () => {
  const path = join(dir, 'register.db');
  const store = openSqliteStore(path);
  const hasIndex = () => store.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'companies_fingerprints'").get() !== undefined;
  try {
    await seedRegister(store, { count: 2_000, seed: 'fingerprints' });
    expect(hasIndex()).toBe(false);
    // A first load (onto the filled register) builds it with the other indexes at its end.
    await importOpenData(store, join(FIXTURES, 'bolagsverket-week1.txt'), { source: 'bolagsverket' });
    expect(hasIndex()).toBe(true);
    const again = await importOpenData(store, join(FIXTURES, 'bolagsverket-week1.txt'), { source: 'bolagsverket' });
    expect(again.result).toMatchObject({ created: 0, updated: 0, vanished: 0 });
    expect(again.result.unchanged).toBeGreaterThan(0);
    // A weekly import on a register whose index is gone (an older seed dropped it) makes it again.
    store.db.exec('DROP INDEX companies_fingerprints');
    await importOpenData(store, join(FIXTURES, 'bolagsverket-week1.txt'), { source: 'bolagsverket' });
    expect(hasIndex()).toBe(true);
  } finally {
    await store.close();
  }
});
