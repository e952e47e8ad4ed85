// Two first loads at once into one empty SQLite register (Bolagsverket's and SCB's first weeks
// from two cron jobs on a fresh install), in two processes: each finds the rows the other wrote,
// so the register ends with one row per org nr, as one import after the other leaves it. Until
// 2026-11-27 both loads took every key for new, wrote the companies they share twice, and both
// failed at the end building the org nr index.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { importOpenData } from '../../src/import/import-open-data.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { generateWeeks, weekFiles } from '../helpers/generated-weeks.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'bolag-first-loads-at-once-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Large enough that each load runs for several transactions while the other does.
const BV_ROWS = 40_000;
const SCB_ROWS = 24_000;

function register(path: string): { rows: unknown[]; fts: number } {
  const store = openSqliteStore(path);
  try {
    const { db } = store;
    return {
      rows: db.prepare('SELECT org_nr, name, legal_form, status, postal_code, sni_codes, advertising_blocked, sources FROM companies ORDER BY org_nr').raw(true).all(),
      // The full-text index built at the end, as the later of the two loads builds it.
      fts: db.prepare("SELECT count(*) FROM companies_fts WHERE companies_fts MATCH 'name:ab'").pluck().get() as number,
    };
  } finally {
    store.db.close();
  }
}

describe('two first loads at once into an empty SQLite register', () => {
  it('leave one row per org nr, as one after the other does', { timeout: 120_000 }, async () => {
    const files = weekFiles(dir, 1);
    generateWeeks(files, BV_ROWS, SCB_ROWS);
    const [bolagsverket, scb] = [files.bolagsverket[0], files.scb[0]];

    const apart = join(dir, 'apart.db');
    const first = openSqliteStore(apart);
    const a1 = await importOpenData(first, bolagsverket, { source: 'bolagsverket' });
    const b1 = await importOpenData(first, scb, { source: 'scb' });
    await first.close();
    const expected = register(apart);
    expect(b1.result.updated).toBeGreaterThan(1000); // companies both sources list
    expect(expected.fts).toBeGreaterThan(1000);

    const together = join(dir, 'together.db');
    const run = (source: string, file: string) => execa(process.execPath, [join(ROOT, 'bin/bolag.js'), '--db', together, 'db', 'import', '--source', source, file]);
    const [a2, b2] = (await Promise.all([run('bolagsverket', bolagsverket), run('scb', scb)])).map((r) => JSON.parse(r.stdout));
    expect(a2.created + b2.created).toBe(a1.result.created + b1.result.created);
    // The later found the companies the earlier had written.
    expect(a2.updated + b2.updated).toBe(a1.result.updated + b1.result.updated);
    const got = register(together);
    expect(got.rows.length).toBe(expected.rows.length);
    expect(got.rows).toEqual(expected.rows);
    expect(got.fts).toBe(expected.fts);
  });
});
