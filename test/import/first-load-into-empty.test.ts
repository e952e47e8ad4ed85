// A source's first load into an empty register builds even the org nr index at its end and finds
// the rows it wrote by their numbers in memory (store/sqlite/rowids-by-number.ts): an org nr the
// file repeats, in another batch or the same one, ends as its last line says, in one row, exactly
// as an import that keeps every index (--strict, one transaction) leaves it.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBolagsverketRow } from '../../src/import/bolagsverket/parse-row.js';
import { importOpenData } from '../../src/import/import-open-data.js';
import { RowidsByNumber } from '../../src/store/sqlite/rowids-by-number.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'open-data');
const dir = mkdtempSync(join(tmpdir(), 'bolag-first-load-empty-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The register's rows (the import's time aside) and indexes, as one digest; with the name of one company. */
function register(path: string): { digest: string; rows: number; name: unknown; indexes: string[] } {
  const store = openSqliteStore(path);
  try {
    const db = store.db;
    const names = (db.prepare("SELECT name FROM pragma_table_info('companies')").pluck().all() as string[]).filter((n) => n !== 'updated_at');
    const rows = db.prepare(`SELECT ${names.join(', ')} FROM companies ORDER BY rowid`).raw(true).all();
    return {
      digest: createHash('sha256').update(JSON.stringify(rows)).digest('hex'),
      rows: rows.length,
      name: db.prepare("SELECT name FROM companies WHERE org_nr = '5566778899'").pluck().get(),
      indexes: db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'companies' ORDER BY name").pluck().all() as string[],
    };
  } finally {
    store.db.close();
  }
}

describe('a first load into an empty register', () => {
  it('gives an org nr the file repeats the first line of it, in one row, as an import keeping every index does', async () => {
    const [header, first, ...rest] = readFileSync(join(FIXTURES, 'bolagsverket-week1.txt'), 'utf8').split('\n');
    expect(first).toContain('"5566778899$ORGNR-IDORG"');
    // The first company again at the end, renamed, and once more right after its first line.
    const renamed = first.replace('Exempel Sverige AB$', 'Exempel Omdöpt AB$');
    const file = join(dir, 'repeats.txt');
    // Only lines that can be read: the import keeping every index is the strict one.
    const readable = rest.filter((text, i) => {
      try {
        return text !== '' && parseBolagsverketRow(i + 3, text) !== null;
      } catch {
        return false;
      }
    });
    writeFileSync(file, [header, first, first.replace('Exempel Sverige AB$', 'Exempel Mellan AB$'), ...readable, renamed, ''].join('\n'));

    const results = [];
    for (const [name, opts] of [
      ['batches of one', { batchSize: 1 }],
      ['one batch', {}],
      ['strict', { strict: true }],
    ] as const) {
      const path = join(dir, `${name}.db`);
      const store = openSqliteStore(path);
      const { result } = await importOpenData(store, file, { source: 'bolagsverket', ...opts });
      await store.close();
      results.push({ name, result, ...register(path) });
    }
    for (const r of results) {
      // The first line stands (until 2026-11-29 the last did).
      expect(r.name, r.name).toBe('Exempel Sverige AB');
      expect(r.result.created, r.name).toBe(r.rows);
      expect(r.indexes, r.name).toContain('companies_org_nr');
      expect(r.digest, r.name).toBe(results[2].digest);
    }
  });
});

describe('RowidsByNumber', () => {
  it('answers as a Map does through its growth, for ten-digit numbers and ones that differ only in their high digits', () => {
    const map = new RowidsByNumber();
    const truth = new Map<number, number>();
    for (let i = 0; i < 200_000; i++) {
      const n = i % 2 === 0 ? 5_560_000_000 + i * 7 : i * 4_294_967_296 + 1;
      map.set(n, i + 1);
      truth.set(n, i + 1);
    }
    // Set again: the later rowid wins.
    map.set(5_560_000_000, 999_999);
    truth.set(5_560_000_000, 999_999);
    for (const [n, rowid] of truth) expect(map.get(n)).toBe(rowid);
    for (const n of [0, 1, 5_560_000_001, 9_999_999_999, 3 * 4_294_967_296]) expect(map.get(n)).toBe(truth.get(n) ?? 0);
    // At most three quarters full, and no more than twice that: 200,000 numbers in 2^19 slots.
    expect(map.capacity).toBe(2 ** 19);
  });
});
