// The companies INSERT with the rows' blank values written into its SQL (sqlite/literal-insert.ts)
// stores every row exactly as the INSERT that binds every value: the same values and the same
// storage classes, whichever of the blanks a row holds, also past the statements it keeps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPANY_COLUMNS, INTERNAL_COLUMNS } from '../../src/store/sqlite/company-row.js';
import { LiteralInsert } from '../../src/store/sqlite/literal-insert.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-literal-insert-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COLUMNS = [...COMPANY_COLUMNS, ...INTERNAL_COLUMNS];

/** Row `rowid` of pair `pair`: its i-th optional value its blank when bit i of `blanks` is set, else another. */
function row(rowid: number, pair: number, blanks: number): unknown[] {
  const other: Record<string, unknown> = {
    sni_codes: '62010,62020',
    website: 'https://exempel.se',
    website_status: 'aktiv',
    employees_rank: 3,
    trend: 'växer',
    revenue: 1250000,
    profit: -3.5,
    equity_ratio: 0.25,
    revenue_growth: 0,
    has_financials: 1,
    f_skatt: 1,
    vat_registered: 1,
    employer_registered: 1,
    verified: 1,
    advertising_blocked: 1,
    latest_financials: '{"fiscal_year":2024}',
    description: "Konsult's verksamhet",
    bolagsverket_standing: 'registrerad',
    scb_activity: 'aktiv',
    bolagsverket_hash: 4_503_599_627_370_495,
    scb_hash: 17,
  };
  const blank: Record<string, unknown> = {
    sni_codes: '', website: null, website_status: 'okänd', employees_rank: 0, trend: 'okänd', revenue: null, profit: null,
    equity_ratio: null, revenue_growth: null, has_financials: 0, f_skatt: 0, vat_registered: 0, employer_registered: 0,
    verified: 0, advertising_blocked: 0, latest_financials: null, description: '', bolagsverket_standing: null,
    scb_activity: null, bolagsverket_hash: null, scb_hash: null,
  };
  const optional = Object.keys(blank);
  return COLUMNS.map((c) => {
    const i = optional.indexOf(c);
    if (i >= 0) return blanks & (1 << i) ? blank[c] : other[c];
    if (c === 'rowid') return rowid;
    if (c === 'id') return `c_${String(rowid).padStart(7, '0')}`;
    if (c === 'org_nr') return String(5560000000 + rowid);
    if (c === 'lat') return pair % 2 ? 59.3293 : null;
    if (c === 'lng') return pair % 2 ? 18.0686 : null;
    if (c === 'sources') return 1;
    return `${c} ${pair}`;
  });
}

describe('LiteralInsert', () => {
  it('stores each row as the fully bound INSERT does, whichever blanks it holds', () => {
    const store = openSqliteStore(join(dir, 'register.db'));
    try {
      const db = store.db;
      const literal = new LiteralInsert(db, COLUMNS);
      const bound = db.prepare(`INSERT INTO companies (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
      // 150 sets of blanks: more than the statements kept (64), so the fallback binds some; none
      // of the first 64 without blanks, so that the fallback is made past the limit.
      const shapes = [...Array.from({ length: 148 }, (_, i) => ((i + 1) * 2_654_435_761) & 0x1fffff), 0, 0x1fffff];
      shapes.forEach((blanks, i) => {
        literal.run(row(2 * i + 1, i, blanks));
        bound.run(...row(2 * i + 2, i, blanks));
      });
      const read = db.prepare(`SELECT ${COLUMNS.map((c) => `${c}, typeof(${c})`).join(', ')} FROM companies WHERE rowid = ?`).raw(true);
      shapes.forEach((_, i) => {
        const a = read.get(2 * i + 1) as unknown[];
        const b = read.get(2 * i + 2) as unknown[];
        COLUMNS.forEach((c, k) => {
          if (c === 'rowid' || c === 'id' || c === 'org_nr') return;
          expect([c, a[2 * k], a[2 * k + 1]]).toEqual([c, b[2 * k], b[2 * k + 1]]);
        });
      });
    } finally {
      store.db.close();
    }
  });
});
