// PostgreSQL: a source's first load drops the secondary indexes of `companies` and builds them
// after (as the seeder does), never leaving the register without them: an atomic load that fails
// rolls the drop back with its rows, and after a first load that died half-way the next import
// that is not a first load builds what is missing before it starts.
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedRegister } from '../../src/app/seed-register.js';
import { importOpenData } from '../../src/import/import-open-data.js';
import { COMPANY_INDEXES } from '../../src/store/postgres/company-migrations.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { DATABASE_URL, openFreshPgStore, PG_SKIP_REASON } from '../helpers/pg.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'open-data');

describe.skipIf(!DATABASE_URL)(`first loads on PostgreSQL keep the register indexed ${DATABASE_URL ? '' : PG_SKIP_REASON}`, () => {
  let store: PgStore;
  let dir: string;
  beforeEach(async () => {
    store = await openFreshPgStore();
    dir = mkdtempSync(join(tmpdir(), 'bolag-pg-indexes-'));
    await seedRegister(store, { count: 200, seed: 'pg-first-load-indexes' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const indexes = async () =>
    (await store.db.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'companies' AND indexname != 'companies_pkey' ORDER BY 1")).rows.map((r) => r.indexname);
  const all = COMPANY_INDEXES.map((i) => i.name).sort();

  it('builds every index again after a first load, batch by batch and atomic', async () => {
    expect(await indexes()).toEqual(all);
    const built: number[] = [];
    const first = await importOpenData(store, join(FIXTURES, 'bolagsverket-week1.txt'), {
      source: 'bolagsverket',
      onIndexes: (done, total) => {
        expect(total).toBe(all.length);
        built.push(done);
      },
    });
    expect(first.result.created).toBeGreaterThan(0);
    expect(await indexes()).toEqual(all);
    // Said as they are built (the progress on a terminal), from none to all.
    expect(built).toEqual([...Array(all.length + 1).keys()]);
    // --strict: one transaction, the drop and the builds inside it (the fixture's lines cut short left out).
    const lines = readFileSync(join(FIXTURES, 'scb-week1.txt'), 'latin1').split('\n');
    const fields = lines[0].split('\t').length;
    const clean = join(dir, 'scb-clean.txt');
    writeFileSync(clean, lines.filter((l) => l === '' || l.split('\t').length >= fields - 1).join('\n'), 'latin1');
    const builtStrict: number[] = [];
    const strict = await importOpenData(store, clean, { source: 'scb', strict: true, onIndexes: (done) => builtStrict.push(done) });
    expect(builtStrict).toEqual([...Array(all.length + 1).keys()]);
    expect(strict.result.created + strict.result.updated).toBeGreaterThan(0);
    expect(await indexes()).toEqual(all);
    const found = await store.companies.get('556677-8899');
    expect(found?.name).toBeTruthy();
  });

  it('rolls the drop back with an atomic first load that fails', async () => {
    // SCB's file with a line cut short: --strict stops there, and nothing changed.
    const text = readFileSync(join(FIXTURES, 'scb-week1.txt'), 'latin1').split('\n');
    text.splice(3, 0, '0\t\tTrasig rad AB\t1');
    const bad = join(dir, 'scb-bad.txt');
    writeFileSync(bad, text.join('\n'), 'latin1');
    await expect(importOpenData(store, bad, { source: 'scb', strict: true, onError: () => {} })).rejects.toThrow(/line 4/);
    expect(await indexes()).toEqual(all);
    expect((await store.db.query('SELECT 1 FROM companies WHERE (sources & 2) != 0')).rows).toEqual([]);
  });

  it('builds what a first load that died half-way left missing before the next import', async () => {
    await importOpenData(store, join(FIXTURES, 'bolagsverket-week1.txt'), { source: 'bolagsverket' });
    // What a process killed between its drop and its builds leaves behind.
    for (const { name } of COMPANY_INDEXES) if (name !== 'companies_org_nr') await store.db.query(`DROP INDEX ${name}`);
    expect(await indexes()).toEqual(['companies_org_nr']);
    await importOpenData(store, join(FIXTURES, 'bolagsverket-week2.txt'), { source: 'bolagsverket' });
    expect(await indexes()).toEqual(all);
  });
});
