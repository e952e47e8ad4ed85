// Two imports on one SQLite register at once (two sources, two processes: here two connections)
// both create companies: each numbers its new rows after the highest when it holds the write lock,
// not after the highest it saw when it started.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedRegister } from '../../src/app/seed-register.js';
import type { Company } from '../../src/core/company.js';
import { withCheckDigit } from '../../src/core/orgnr.js';
import { planRecord } from '../../src/import/plan-record.js';
import type { ImportRecord } from '../../src/store/import-types.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

let dir: string;
let first: SqliteStore;
let second: SqliteStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bolag-import-rows-'));
  first = openSqliteStore(join(dir, 'register.db'));
  await seedRegister(first, { count: 30, seed: 'import-rows' });
  second = openSqliteStore(join(dir, 'register.db'));
});
afterEach(async () => {
  await second.close();
  await first.close();
  rmSync(dir, { recursive: true, force: true });
});

/** New companies modelled on a stored one, under org nrs from `from`. */
function newCompanies(base: Company, from: number, n: number): ImportRecord[] {
  const { id: _id, ...rest } = base;
  return Array.from({ length: n }, (_, i) => ({
    line: i + 1,
    data: { ...rest, org_nr: withCheckDigit(String(from + i)), name: `Nytt Bolag ${from + i} AB` },
  }));
}

// Batch by batch, an import holds the write lock only while it writes, so the other can import
// meanwhile (all or nothing, it holds it from its start: the number is read right after).
describe('two imports that create companies at once', () => {
  it('number their rows apart', async () => {
    const base = (await first.companies.get('c_0000001'))!;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The later import starts first and waits for its records while the other imports.
    async function* later(): AsyncGenerator<ImportRecord[]> {
      await gate;
      yield newCompanies(base, 559900100, 5);
    }
    const waiting = second.companies.importRecords(later(), planRecord, { atomic: false });
    const earlier = await first.companies.importRecords(newCompanies(base, 559900200, 5), planRecord, { atomic: false });
    expect(earlier.created).toBe(5);
    release();
    expect((await waiting).created).toBe(5);
    const rows = first.db.prepare("SELECT rowid, id, name FROM companies WHERE name LIKE 'Nytt Bolag %' ORDER BY rowid").all() as { rowid: number; id: string; name: string }[];
    expect(rows.map((r) => r.rowid)).toEqual([31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
    expect(rows.slice(5).map((r) => r.name)).toEqual([100, 101, 102, 103, 104].map((i) => `Nytt Bolag 5599${i.toString().padStart(5, '0')} AB`));
    expect(rows[5].id).toBe(`c_${(36).toString(36).padStart(7, '0')}`);
  });
});
