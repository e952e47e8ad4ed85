// Week after week, on SQLite and (with DATABASE_URL) on PostgreSQL: identical files change
// nothing, a vanished organisation is marked and comes back when it reappears (its fingerprint
// cleared), events as for our format; the statistics (company_counts) stay exactly what a count
// of the rows gives through first loads onto a filled register, weekly updates and vanished
// rows; the business description is found through q.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEARCH_QUERY_SCHEMA, toSearchQuery } from '../../src/core/search-params.js';
import { importOpenData } from '../../src/import/import-open-data.js';
import { seedRegister } from '../../src/app/seed-register.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { COUNTS_FROM_TABLE_SQL } from '../../src/store/sqlite/stats/count-keys.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { DATABASE_URL, openFreshPgStore } from '../helpers/pg.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'open-data');

type Counts = string[];

/** company_counts as stored, and as counted from the rows now (rows at zero left out). */
interface Flavour {
  name: string;
  open(): Promise<{ store: Store; close(): Promise<void> }>;
  counts(store: Store): Promise<{ stored: Counts; truth: Counts }>;
}

const sqlite: Flavour = {
  name: 'SQLite',
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'bolag-weeks-'));
    const store = openSqliteStore(join(dir, 'register.db'));
    return {
      store,
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  async counts(s) {
    const db = (s as SqliteStore).db;
    db.exec('DROP TABLE IF EXISTS temp.truth; CREATE TEMP TABLE truth (dim TEXT, value TEXT, status TEXT, n INTEGER)');
    db.exec(COUNTS_FROM_TABLE_SQL.replace('INSERT INTO company_counts', 'INSERT INTO temp.truth'));
    const read = (table: string) =>
      (db.prepare(`SELECT dim, value, status, n FROM ${table} WHERE n != 0 ORDER BY 1, 2, 3`).raw(true).all() as unknown[][]).map((r) => r.join('|'));
    return { stored: read('main.company_counts'), truth: read('temp.truth') };
  },
};

const postgres: Flavour = {
  name: 'PostgreSQL',
  async open() {
    const store = await openFreshPgStore();
    return { store, close: () => store.close() };
  },
  async counts(s) {
    const db = (s as PgStore).db;
    const read = async (text: string) => (await db.query<{ k: string }>(`SELECT dim || '|' || value || '|' || status || '|' || n AS k FROM (${text}) t WHERE n != 0 ORDER BY dim, value COLLATE "C", status`)).rows.map((r) => r.k);
    const truth = `
      SELECT 'county' AS dim, county_code AS value, status, count(*)::int AS n FROM companies GROUP BY 2, 3
      UNION ALL SELECT 'municipality', municipality_code, status, count(*)::int FROM companies GROUP BY 2, 3
      UNION ALL SELECT 'category', category_slug, status, count(*)::int FROM companies GROUP BY 2, 3
      UNION ALL SELECT 'legal_form', legal_form, status, count(*)::int FROM companies GROUP BY 2, 3`;
    return { stored: await read('SELECT dim, value, status, n FROM company_counts'), truth: await read(truth) };
  },
};

for (const flavour of DATABASE_URL ? [sqlite, postgres] : [sqlite]) {
  describe(`weekly Bolagsverket and SCB imports on ${flavour.name}`, () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ store, close } = await flavour.open());
    });
    afterEach(async () => close());

    const bolagsverket = (week: number) => importOpenData(store, join(FIXTURES, `bolagsverket-week${week}.txt`), { source: 'bolagsverket' });
    const scb = (week: number) => importOpenData(store, join(FIXTURES, `scb-week${week}.txt`), { source: 'scb' });
    const events = async () => (await store.outbox.readAfter(0, 1000)).map((e) => ({ type: e.event.type, ...(e.event.data as Record<string, unknown>) }));
    const exact = async (step: string) => {
      const { stored, truth } = await flavour.counts(store);
      expect(truth.length, step).toBeGreaterThan(0);
      expect(stored, step).toEqual(truth);
    };

    it('records nothing for an identical file', async () => {
      await bolagsverket(1);
      const again = await bolagsverket(1);
      expect(again.result).toMatchObject({ created: 0, updated: 0, unchanged: 11, vanished: 0, events: {} });
      expect(await events()).toEqual([]);
    });

    it('reports an unreadable line every week, also when it has not changed', async () => {
      for (const week of [1, 2, 3]) {
        const errors: string[] = [];
        const r = await importOpenData(store, join(FIXTURES, 'bolagsverket-week1.txt'), { source: 'bolagsverket', onError: (line, message) => errors.push(`${line}: ${message}`) });
        expect(errors, `import ${week}`).toEqual(['11: has 4 fields, expected 11', '13: organisationsidentitet "5591000054$ORGNR-IDORG" is not a valid number']);
        expect(r.stats).toMatchObject({ lines: 14, records: 11, persons: 1, errors: 2 });
        expect(r.result).toMatchObject(week === 1 ? { created: 11, unchanged: 0 } : { created: 0, updated: 0, unchanged: 11 });
      }
    });

    it('reports a listed organisation whose line became unreadable every week, and leaves it as it was', async () => {
      await bolagsverket(1);
      const before = await store.companies.get('556677-8899');
      const text = readFileSync(join(FIXTURES, 'bolagsverket-week1.txt'), 'latin1');
      const lines = text.split('\n');
      const at = lines.findIndex((l) => l.startsWith('"5566778899$ORGNR-IDORG"'));
      lines[at] = '"5566778899$ORGNR-IDORG";"1";"SE-LAND";"Exempel Sverige AB"\r';
      const brokenDir = mkdtempSync(join(tmpdir(), 'bolag-broken-'));
      const broken = join(brokenDir, 'broken.txt');
      writeFileSync(broken, lines.join('\n'), 'latin1');
      try {
        for (const week of [2, 3]) {
          const errors: number[] = [];
          const r = await importOpenData(store, broken, { source: 'bolagsverket', onError: (line) => errors.push(line) });
          expect(errors, `week ${week}`).toEqual([at + 1, 11, 13].sort((a, b) => a - b));
          expect(r.result, `week ${week}`).toMatchObject({ created: 0, updated: 0, unchanged: 10, vanished: 0 });
        }
      } finally {
        rmSync(brokenDir, { recursive: true, force: true });
      }
      expect(await store.companies.get('556677-8899')).toEqual(before);
    });

    it('marks a vanished organisation and restores it when it is back', async () => {
      await bolagsverket(1);
      const week2 = await bolagsverket(2);
      expect(week2.result.vanished).toBe(1);
      expect(await store.companies.get('559100-0061')).toMatchObject({ status: 'avregistrerad' });

      const back = await bolagsverket(1);
      expect(back.result).toMatchObject({ vanished: 1 }); // 559100-0079 only came in week 2
      expect(await store.companies.get('559100-0061')).toMatchObject({ status: 'aktiv' });
      expect(await store.companies.get('559100-0079')).toMatchObject({ status: 'avregistrerad' });
      const restored = (await events()).filter((e) => e.org_nr === '559100-0061');
      expect(restored.map((e) => [e.type, e.status])).toEqual([
        ['company.status_changed', 'avregistrerad'],
        ['company.status_changed', 'aktiv'],
      ]);
    });

    it('keeps the statistics exact: first loads onto a filled register, weekly updates, vanished rows', async () => {
      await seedRegister(store, { count: 300, seed: 'open-data-counts' });
      await exact('seeded');
      const steps: [string, () => Promise<unknown>][] = [
        ['Bolagsverket week 1 (first load)', () => bolagsverket(1)],
        ['SCB week 1 (first load)', () => scb(1)],
        ['Bolagsverket week 2', () => bolagsverket(2)],
        ['SCB week 2', () => scb(2)],
        ['Bolagsverket week 1 again', () => bolagsverket(1)],
        ['SCB week 1 again', () => scb(1)],
      ];
      for (const [step, run] of steps) {
        await run();
        await exact(step);
      }
      // The steps did move companies between statuses and places: the check had something to follow.
      const moved = (await events()).filter((e) => e.type === 'company.status_changed' || e.type === 'company.updated');
      expect(moved.length).toBeGreaterThan(3);
      expect((await store.companies.count(toSearchQuery(SEARCH_QUERY_SCHEMA.parse({ status: 'avregistrerad' })).filters, 10_000)).total).toBeGreaterThan(0);
    });

    it('finds companies by words of their business description through q, in tier 4', async () => {
      await seedRegister(store, { count: 300, seed: 'open-data-q' });
      await bolagsverket(1);
      await scb(1);
      const hits = async (q: string, sort = 'relevance') =>
        (await store.companies.search(toSearchQuery(SEARCH_QUERY_SCHEMA.parse({ q, status: 'all', sort, limit: '50' })), null)).rows.map((c) => c.org_nr);
      expect(await hits('surdegsbröd')).toEqual(['556800-0011']);
      expect(await hits('trämöbler')).toEqual(['559100-0038']);
      expect(await hits('trämöb')).toEqual(['559100-0038']); // the last word as a prefix
      expect(await hits('trämöbler', 'name')).toEqual(['559100-0038']);
      expect(await hits('gruvdrift')).toEqual(['559100-0061']);
      // A name word and a description word together.
      const named = (await store.companies.get('559100-0038'))!;
      const firstWord = named.name.split(' ')[0];
      expect(await hits(`${firstWord} trämöbler`)).toEqual(['559100-0038']);
      // Not a word of any description, nor a name.
      expect(await hits('qzxwvy')).toEqual([]);
    });
  });
}
