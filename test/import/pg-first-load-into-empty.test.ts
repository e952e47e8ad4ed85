// PostgreSQL: a source's first load into an empty register reads nothing from it (a key is new
// unless the load wrote it before) and lets each batch's COPY run while the next is planned. An
// org nr the file repeats, in another batch or the same one, ends as its last line says, in one
// row, exactly as the strict import leaves it; company_counts is the register's; and a second
// first load running at once (the other source) finds the first one's rows instead of colliding.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBolagsverketRow } from '../../src/import/bolagsverket/parse-row.js';
import { importOpenData } from '../../src/import/import-open-data.js';
import { REBUILD_COUNTS } from '../../src/store/postgres/company-counts.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { DATABASE_URL, openFreshPgStore, PG_SKIP_REASON } from '../helpers/pg.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'open-data');
// Made once a test runs: without DATABASE_URL every test is skipped, and so is afterAll (a folder
// made at import was left behind by each run on a machine without PostgreSQL).
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bolag-pg-first-load-empty-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The register's rows (the import's time aside) as one digest, the counts as stored and as rebuilt, one company's name. */
async function register(store: PgStore): Promise<{ digest: string; rows: number; name: unknown; counts: unknown[]; rebuilt: unknown[] }> {
  const db = store.db;
  const columns = (await db.query<{ column_name: string }>(
    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'companies' AND column_name != 'updated_at' ORDER BY ordinal_position",
  )).rows.map((r) => r.column_name);
  const { rows } = await db.query({ text: `SELECT ${columns.join(', ')} FROM companies ORDER BY rowid`, rowMode: 'array' });
  const name = (await db.query("SELECT name FROM companies WHERE org_nr = '5566778899'")).rows[0]?.name;
  const readCounts = async () => (await db.query('SELECT dim, value, status, n FROM company_counts WHERE n != 0 ORDER BY 1, 2, 3')).rows;
  const counts = await readCounts();
  await db.query(REBUILD_COUNTS);
  return { digest: createHash('sha256').update(JSON.stringify(rows)).digest('hex'), rows: rows.length, name, counts, rebuilt: await readCounts() };
}

/** Only lines that can be read: the import compared with is the strict one. */
function readableLines(text: string): { header: string; first: string; rest: string[] } {
  const [header, first, ...rest] = text.split('\n');
  const readable = rest.filter((line, i) => {
    try {
      return line !== '' && parseBolagsverketRow(i + 3, line) !== null;
    } catch {
      return false;
    }
  });
  return { header, first, rest: readable };
}

describe.skipIf(!DATABASE_URL)(`a first load into an empty PostgreSQL register ${DATABASE_URL ? '' : PG_SKIP_REASON}`, () => {
  it('gives an org nr the file repeats the first line of it, in one row, with exact counts, as the strict import does', async () => {
    const { header, first, rest } = readableLines(readFileSync(join(FIXTURES, 'bolagsverket-week1.txt'), 'utf8'));
    expect(first).toContain('"5566778899$ORGNR-IDORG"');
    // The first company again at the end, renamed, and once more right after its first line.
    const renamed = first.replace('Exempel Sverige AB$', 'Exempel Omdöpt AB$');
    const file = join(dir, 'repeats.txt');
    writeFileSync(file, [header, first, first.replace('Exempel Sverige AB$', 'Exempel Mellan AB$'), ...rest, renamed, ''].join('\n'));

    const results = [];
    for (const [name, opts] of [
      ['batches of one', { batchSize: 1 }],
      ['batches of three', { batchSize: 3 }],
      ['one batch', {}],
      ['strict', { strict: true }],
    ] as const) {
      const store = await openFreshPgStore();
      try {
        const { result } = await importOpenData(store, file, { source: 'bolagsverket', ...opts });
        results.push({ name, result, ...(await register(store)) });
      } finally {
        await store.close();
      }
    }
    const strict = results[3];
    expect(strict.rows).toBeGreaterThan(5);
    for (const r of results) {
      // The first line stands (until 2026-11-29 the last did).
      expect(r.name, r.name).toBe('Exempel Sverige AB');
      expect(r.result.created, r.name).toBe(r.rows);
      expect(r.result.updated, r.name).toBe(strict.result.updated);
      expect(r.digest, r.name).toBe(strict.digest);
      expect(r.counts, r.name).toEqual(r.rebuilt);
    }
  });

  it('two first loads at once (both sources) leave one row per org nr, as one after the other does', async () => {
    const bolagsverket = join(FIXTURES, 'bolagsverket-week1.txt');
    const scb = join(FIXTURES, 'scb-week1.txt');
    const records = async (store: PgStore) =>
      (await store.db.query('SELECT org_nr, name, legal_form, status, postal_code, sni_codes, advertising_blocked, sources FROM companies ORDER BY org_nr')).rows;

    const apart = await openFreshPgStore();
    let expected;
    try {
      await importOpenData(apart, bolagsverket, { source: 'bolagsverket' });
      await importOpenData(apart, scb, { source: 'scb' });
      expected = await records(apart);
    } finally {
      await apart.close();
    }
    const together = await openFreshPgStore();
    try {
      // Batches of one: the two interleave transaction by transaction.
      const [a, b] = await Promise.all([
        importOpenData(together, bolagsverket, { source: 'bolagsverket', batchSize: 1 }),
        importOpenData(together, scb, { source: 'scb', batchSize: 1 }),
      ]);
      expect(a.result.created + b.result.created).toBe(expected.length);
      expect(await records(together)).toEqual(expected);
      const { counts, rebuilt } = await register(together);
      expect(counts).toEqual(rebuilt);
    } finally {
      await together.close();
    }
  });
});
