// An import on PostgreSQL changes what search finds in the same transaction as it records the
// events: a renamed company is found by its new name (the word vector is rewritten) and not by
// its old one, a new company takes the next row number, include_total from the counts table
// follows the move to another county and legal form, the SNI filter finds a code no company
// had before, and the outbox holds the implied events. An import that fails leaves all of it
// as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '../../src/core/company.js';
import { SEARCH_QUERY_SCHEMA, toSearchQuery } from '../../src/core/search-params.js';
import { withCheckDigit } from '../../src/core/orgnr.js';
import { planRecord } from '../../src/import/plan-record.js';
import { seedRegister } from '../../src/app/seed-register.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { DATABASE_URL, openFreshPgStore, PG_SKIP_REASON } from '../helpers/pg.js';
import type { Params } from './reference.js';

const query = (p: Params) => toSearchQuery(SEARCH_QUERY_SCHEMA.parse(p));

if (!DATABASE_URL) {
  describe('PostgreSQL import and search', () => it.skip(PG_SKIP_REASON, () => {}));
} else {
  describe('PostgreSQL import and search', () => {
    let store: PgStore;
    beforeAll(async () => {
      store = await openFreshPgStore();
      await seedRegister(store, { count: 2000, seed: 'import-pg' });
    }, 120_000);
    afterAll(async () => store?.close());

    const ids = async (p: Params) => (await store.companies.search(query({ ...p, limit: '100' }), null)).rows.map((c) => c.id);
    const total = async (p: Params) => store.companies.count(query(p).filters, 10_000);
    const outbox = async () => (await store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox')).rows[0].n;

    it('renames, moves and creates, and search, counts and the outbox follow at once', async () => {
      const before = (await store.companies.get('c_0000007'))!;
      const target = before.county_code === '01' ? { county: '25', municipality: '2580' } : { county: '01', municipality: '0180' };
      const legal = before.legal_form === 'filial' ? 'stiftelse' : 'filial';
      const countsBefore = { target: await total({ county: target.county, status: 'all' }), legal: await total({ legal_form: legal, status: 'all' }) };
      const events = await outbox();
      const fresh: Company = {
        ...before,
        id: '',
        org_nr: withCheckDigit('559912345'),
        name: 'Zyxwvutsson Qwerty AB',
        sni_codes: ['99999'],
      };
      const result = await store.companies.importRecords(
        [
          { line: 1, data: { org_nr: before.org_nr, name: 'Xylofonix Konsult AB', county_code: target.county, municipality_code: target.municipality, legal_form: legal } },
          { line: 2, data: fresh as unknown as Record<string, unknown> },
        ],
        planRecord,
      );
      expect(result).toMatchObject({ created: 1, updated: 1, unchanged: 0 });
      expect(await outbox()).toBeGreaterThan(events);

      expect(await ids({ q: 'xylofonix', status: 'all' })).toEqual([before.id]);
      expect(await ids({ q: before.name, status: 'all' })).not.toContain(before.id);
      const created = await ids({ q: 'zyxwvutsson qwe', status: 'all' });
      expect(created).toEqual(['c_00001jl']); // row 2,001
      expect(await ids({ sni: '9999', status: 'all' })).toEqual(created);

      expect(await total({ county: target.county, status: 'all' })).toEqual({ total: countsBefore.target.total + 1 + (fresh.county_code === target.county ? 1 : 0), estimated: false });
      expect(await total({ legal_form: legal, status: 'all' })).toEqual({ total: countsBefore.legal.total + 1 + (fresh.legal_form === legal ? 1 : 0), estimated: false });
      // The counts table agrees with a count of the rows themselves.
      const exact = await store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies WHERE legal_form = $1', [legal]);
      expect((await total({ legal_form: legal, status: 'all' })).total).toBe(exact.rows[0].n);
    });

    it('an import that fails changes nothing', async () => {
      const counts = await store.db.query('SELECT dim, value, status, n FROM company_counts ORDER BY 1, 2, 3');
      const events = await outbox();
      const last = await store.companies.lastRow();
      const c = (await store.companies.get('c_0000009'))!;
      await expect(
        store.companies.importRecords(
          [
            { line: 1, data: { org_nr: c.org_nr, name: 'Should Not Stay AB', legal_form: 'filial' } },
            { line: 2, data: { org_nr: 'not a number' } },
          ],
          planRecord,
        ),
      ).rejects.toThrow(/line 2|org_nr/);
      expect((await store.companies.get(c.id))?.name).toBe(c.name);
      expect(await ids({ q: 'should not stay', status: 'all' })).toEqual([]);
      expect(await outbox()).toBe(events);
      expect(await store.companies.lastRow()).toBe(last);
      expect((await store.db.query('SELECT dim, value, status, n FROM company_counts ORDER BY 1, 2, 3')).rows).toEqual(counts.rows);
    });
  });
}
