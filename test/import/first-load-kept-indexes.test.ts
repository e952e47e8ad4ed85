// A source's first load onto companies the other source listed keeps the indexes over what it
// does not write (store/sqlite/first-load-indexes.ts, FIRST_LOAD_WRITES): each kept index follows
// the load's writes row by row, and must answer as one built anew from the rows it ends with.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenData } from '../../src/import/import-open-data.js';
import { FIRST_LOAD_WRITES } from '../../src/import/open-data/plan-source-row.js';
import { columnsOfFields } from '../../src/store/sqlite/company-row.js';
import { buildIndexesInBulk } from '../../src/store/sqlite/company-writer.js';
import { type Db, dropCompanyIndexes, ensureCompanyIndexes, ensureFingerprintsIndex } from '../../src/store/sqlite/database.js';
import { firstLoadIndexes } from '../../src/store/sqlite/first-load-indexes.js';
import { COMPANY_INDEXES, FINGERPRINTS_INDEX } from '../../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { indexAnswers } from '../helpers/index-answers.js';
import { generateWeeks, weekFiles } from '../helpers/generated-weeks.js';

const BV_ROWS = 6_000;
const SCB_ROWS = 3_600;
const dir = mkdtempSync(join(tmpdir(), 'bolag-kept-indexes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const files = weekFiles(dir);

const indexName = (sql: string) => /INDEX IF NOT EXISTS (\w+)/.exec(sql)![1];

async function importInto(path: string, source: 'bolagsverket' | 'scb', file: string): Promise<void> {
  const store = openSqliteStore(path);
  try {
    await importOpenData(store, file, { source });
  } finally {
    await store.close();
  }
}

/** What the register's indexes answer (helpers/index-answers.ts). */
function answers(path: string): Record<string, string> {
  const store = openSqliteStore(path);
  try {
    return indexAnswers(store.db);
  } finally {
    store.db.close();
  }
}

/** A copy of the register with every index built anew from its rows. */
function rebuiltCopy(path: string): string {
  const copy = `${path}.rebuilt.db`;
  const store = openSqliteStore(path);
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.db.close();
  copyFileSync(path, copy);
  const db: Db = openSqliteStore(copy).db;
  dropCompanyIndexes(db);
  const geo = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'companies_geo'").pluck().get() as string;
  db.exec(`DROP TABLE companies_geo; ${geo}; DELETE FROM company_sni; INSERT INTO companies_fts (companies_fts) VALUES ('delete-all');`);
  db.transaction(() => buildIndexesInBulk(db, { spatial: 'in-memory' }))();
  ensureCompanyIndexes(db);
  ensureFingerprintsIndex(db);
  db.close();
  return copy;
}

describe('which indexes a first load builds again', () => {
  it('into an empty register: all of them', () => {
    const all = firstLoadIndexes({ empty: true, writes: FIRST_LOAD_WRITES.scb });
    expect([...COMPANY_INDEXES, FINGERPRINTS_INDEX].every((sql) => all.drops(sql))).toBe(true);
    expect(all.side).toEqual({ sni: true, fts: true, geo: true });
  });

  it("SCB's onto a filled register: those over the places, categories, status and its fingerprints; not the names, dates, figures or org nrs", () => {
    const scb = firstLoadIndexes({ empty: false, writes: FIRST_LOAD_WRITES.scb });
    const dropped = [...COMPANY_INDEXES, FINGERPRINTS_INDEX].filter((sql) => scb.drops(sql)).map(indexName);
    expect(dropped.sort()).toEqual(
      [
        'companies_category', 'companies_city', 'companies_employees_revenue', 'companies_fingerprints', 'companies_legal_form',
        'companies_place', 'companies_postal', 'companies_status_name', 'company_sni_company',
      ].sort(),
    );
    expect(scb.side).toEqual({ sni: true, fts: false, geo: true });
  });

  it("Bolagsverket's onto a filled register keeps the org nrs and figures; unknown writes drop all but the org nrs", () => {
    const bv = firstLoadIndexes({ empty: false, writes: FIRST_LOAD_WRITES.bolagsverket });
    const kept = [...COMPANY_INDEXES, FINGERPRINTS_INDEX].filter((sql) => !bv.drops(sql)).map(indexName);
    expect(kept).toContain('companies_org_nr');
    expect(kept).toContain('companies_revenue');
    expect(kept).not.toContain('companies_registration_date');
    expect(bv.side).toEqual({ sni: false, fts: true, geo: true });
    const unknown = firstLoadIndexes({ empty: false });
    expect([...COMPANY_INDEXES, FINGERPRINTS_INDEX].filter((sql) => !unknown.drops(sql)).map(indexName)).toEqual(['companies_org_nr']);
    expect(unknown.side).toEqual({ sni: true, fts: true, geo: true });
  });
});

describe('a first load onto companies the other source listed', () => {
  beforeAll(() => {
    generateWeeks(files, BV_ROWS, SCB_ROWS);
  });

  for (const [first, second] of [['bolagsverket', 'scb'], ['scb', 'bolagsverket']] as const) {
    it(`${second} after ${first}: writes only columns its FIRST_LOAD_WRITES names, and the kept indexes answer as ones built anew`, async () => {
      const path = join(dir, `${first}-then-${second}.db`);
      await importInto(path, first, files[first][0]);
      const before = rowsByRowid(path);
      await importInto(path, second, files[second][0]);

      // On the companies the first source listed, the second changes only what it says it writes.
      const written = columnsOfFields(FIRST_LOAD_WRITES[second]);
      const changed = new Set<string>();
      for (const [rowid, after] of rowsByRowid(path)) {
        const was = before.get(rowid);
        if (!was) continue;
        for (const [column, value] of Object.entries(after)) if (was[column] !== value) changed.add(column);
      }
      expect(changed.size).toBeGreaterThan(0);
      expect([...changed].filter((c) => !written.has(c))).toEqual([]);

      expect(answers(path)).toEqual(answers(rebuiltCopy(path)));
      // The weekly updates after it, on the kept indexes.
      await importInto(path, first, files[first][1]);
      await importInto(path, second, files[second][1]);
      const week2 = answers(path);
      expect(week2).toEqual(answers(rebuiltCopy(path)));
      expect(week2.integrity).toBe('["ok"]');
      expect(week2.rtree).toBe('ok');
    }, 120_000);
  }
});

function rowsByRowid(path: string): Map<number, Record<string, unknown>> {
  const store = openSqliteStore(path);
  try {
    const rows = store.db.prepare('SELECT * FROM companies').all() as Record<string, unknown>[];
    return new Map(rows.map((r) => [r.rowid as number, r]));
  } finally {
    store.db.close();
  }
}
