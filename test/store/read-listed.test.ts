// The fingerprints a weekly import reads at its start on SQLite (sqlite/read-listed.ts), a page
// at a time along the covering index: every listed row once, in org nr order, whatever the page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { seedRegister } from '../../src/app/seed-register.js';
import { ensureFingerprintsIndex } from '../../src/store/sqlite/database.js';
import { readListed } from '../../src/store/sqlite/read-listed.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-read-listed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('reads every row with a fingerprint once, in org nr order, across page boundaries', async () => {
  const store = openSqliteStore(join(dir, 'register.db'));
  try {
    await seedRegister(store, { count: 500, seed: 'read-listed' });
    const db = store.db;
    ensureFingerprintsIndex(db);
    // Two rows in three list the source; one has an org nr with a leading zero.
    db.exec('UPDATE companies SET scb_hash = rowid * 1000003 WHERE rowid % 3 != 0');
    db.exec("UPDATE companies SET org_nr = '0000000017' WHERE rowid = 1");
    const want = db.prepare('SELECT org_nr, rowid, scb_hash FROM companies WHERE scb_hash IS NOT NULL ORDER BY org_nr').raw(true).all() as [string, number, number][];
    expect(want.length).toBeGreaterThan(300);
    for (const pageSize of [1, 7, want.length, want.length + 1, 20_000]) {
      const listed = readListed(db, 'scb_hash', pageSize);
      expect(listed.length, `page of ${pageSize}`).toBe(want.length);
      for (const [orgNr, rowid, print] of want) {
        const entry = listed.find(orgNr);
        expect(listed.rowid(entry)).toBe(rowid);
        expect(listed.fingerprint(entry)).toBe(print);
      }
    }
  } finally {
    await store.close();
  }
});
