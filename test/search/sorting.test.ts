// Every sort order, both directions, over whole result sets: the order of the records returned
// (all pages) is exactly the reference order — value first, nulls last in both directions,
// ties broken by id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '../../src/core/company.js';
import { EMPLOYEES_CLASSES } from '../../src/core/values.js';
import { type SearchServer, searchAll, forEachStore } from '../helpers/search-server.js';
import { expected, type Params } from './reference.js';

forEachStore((start) => {
  let s: SearchServer;
  let all: Company[];
  beforeAll(async () => {
    s = await start();
    all = s.all();
  });
  afterAll(async () => s?.close());

  async function checkOrder(p: Params, limit = 100) {
    const got = await searchAll(s, p, limit);
    const want = expected(all, p);
    expect(got.map((c) => c.id)).toEqual(want.map((c) => c.id));
    expect(new Set(got.map((c) => c.id)).size).toBe(got.length);
    return got;
  }

  const keys = ['name', 'revenue', 'profit', 'registration_date', 'equity_ratio', 'revenue_growth', 'employees_class'];

  describe('sort orders over the whole register', () => {
    for (const key of keys) {
      for (const sort of [key, `-${key}`]) {
        it(`sort=${sort}`, async () => {
          const got = await checkOrder({ sort, status: 'all' });
          expect(got.length).toBe(all.length);
        });
      }
    }
  });

  describe('nulls last, ties by id', () => {
    it('revenue: nulls after every value, ascending and descending', async () => {
      for (const sort of ['revenue', '-revenue']) {
        const got = await checkOrder({ sort, status: 'all' });
        const firstNull = got.findIndex((c) => c.revenue === null);
        expect(firstNull).toBeGreaterThan(0);
        expect(got.slice(firstNull).every((c) => c.revenue === null)).toBe(true);
        const nullIds = got.slice(firstNull).map((c) => c.id);
        expect(nullIds).toEqual([...nullIds].sort());
      }
    });

    it('employees_class: many ties, each run in id order, classes in SCB order', async () => {
      const got = await checkOrder({ sort: '-employees_class' }, 37);
      const ranks = got.map((c) => EMPLOYEES_CLASSES.indexOf(c.employees_class));
      for (let i = 1; i < got.length; i++) {
        expect(ranks[i]).toBeLessThanOrEqual(ranks[i - 1]);
        if (ranks[i] === ranks[i - 1]) expect(got[i].id > got[i - 1].id).toBe(true);
      }
    });

    it('with filters that make the planner walk, collect or give up', async () => {
      await checkOrder({ sort: '-revenue', county: '01', legal_form: 'aktiebolag' });
      await checkOrder({ sort: 'profit', municipality: '0180', revenue_min: '100000' }, 7);
      await checkOrder({ sort: '-registration_date', registered_from: '2024-01-01' }, 13);
      await checkOrder({ sort: 'equity_ratio', equity_ratio_min: '0.5', status: 'all' });
      await checkOrder({ sort: '-employees_class', employees_class: '1-4,20-49,0' });
      await checkOrder({ sort: 'employees_class', employees_class: '5-9,10-19', county: '14' }, 9);
      await checkOrder({ sort: 'name', legal_form: 'bostadsrattsforening', f_skatt: 'true' });
      await checkOrder({ sort: '-name', verified: 'true', website_status: 'okänd' }, 11);
    });

    it('within a leading filter’s own index, its entries’ columns tested there (issue 13’s hard shapes)', async () => {
      // Revenue order within a legal form or an employee class, both directions, nulls last.
      await checkOrder({ sort: '-revenue', legal_form: 'ekonomisk_forening' }, 23);
      await checkOrder({ sort: 'revenue', legal_form: 'handelsbolag', revenue_min: '100000' }, 17);
      await checkOrder({ sort: '-revenue', legal_form: 'aktiebolag', f_skatt: 'false', verified: 'true' }, 19);
      await checkOrder({ sort: '-revenue', category: 'bygg', employees_class: '10-19' }, 7);
      await checkOrder({ sort: 'revenue', employees_class: '5-9', status: 'konkurs' }, 11);
      // Filters that (nearly) exclude each other, in name order.
      expect(await checkOrder({ county: '01', municipality: '2580' })).toEqual([]);
      await checkOrder({ county: '25', municipality: '2580', sort: '-name' }, 13);
      await checkOrder({ legal_form: 'bostadsrattsforening', f_skatt: 'false', vat_registered: 'true' }, 29);
      await checkOrder({ legal_form: 'aktiebolag', verified: 'true', has_financials: 'false', employer_registered: 'true' }, 41);
      await checkOrder({ verified: 'true', website_status: 'okänd', trend: 'minskande' }, 9);
      await checkOrder({ verified: 'true', county: '12', sort: '-name' }, 31);
      await checkOrder({ sni: '62', postal_code: '11' }, 13);
    });
  });

  describe('relevance', () => {
    const queries = ['bygg', 'andersson', 'ab', 'norden ab', 'svensson bygg', 'frisör', 'el', 'konsult', 'anna', 'vvs', 'fastighet'];
    for (const q of queries) {
      it(`q=${q}: tiers in order, ties by id`, async () => {
        const got = await checkOrder({ q }, 50);
        if (!q.includes(' ')) expect(got.length).toBeGreaterThan(0);
      });
    }

    it('a multi-word query drawn from the register itself finds its company in tier 1', async () => {
      const c = all.find((x) => x.status === 'aktiv' && x.name.split(' ').length >= 3)!;
      const q = c.name.split(' ').slice(0, 2).join(' ').toUpperCase();
      const got = await checkOrder({ q });
      expect(got.slice(0, got.findIndex((x) => !x.name.toLowerCase().startsWith(q.toLowerCase())) >>> 0).map((x) => x.id)).toContain(c.id);
    });

    it('descending relevance, and relevance with filters', async () => {
      await checkOrder({ q: 'bygg', sort: '-relevance' });
      await checkOrder({ q: 'bygg', county: '01,12' });
      await checkOrder({ q: 'ab', revenue_min: '1000000', legal_form: 'aktiebolag' });
      await checkOrder({ q: 'andersson', status: 'all', sort: '-relevance' }, 7);
    });

    it('names that begin with the query come first, in name order', async () => {
      const got = await searchAll(s, { q: 'norden' }, 100);
      const begins = got.findIndex((c) => !c.name.toLowerCase().startsWith('norden'));
      expect(begins).toBeGreaterThan(0);
      const head = got.slice(0, begins).map((c) => c.name.toLowerCase());
      expect(head).toEqual([...head].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    });
  });

  describe('distance', () => {
    for (const [near, radius] of [
      ['59.3293,18.0686', '10'],
      ['59.3293,18.0686', '500'],
      ['57.7089,11.9746', '40'],
      ['67.85,20.22', '250'],
    ]) {
      it(`near=${near} radius_km=${radius}`, async () => {
        const got = await checkOrder({ near, radius_km: radius, sort: 'distance' }, 100);
        for (let i = 1; i < got.length; i++) expect(got[i].distance_km).toBeGreaterThanOrEqual(got[i - 1].distance_km);
      });
    }

    it('distance with filters', async () => {
      await checkOrder({ near: '59.3293,18.0686', radius_km: '300', sort: 'distance', legal_form: 'aktiebolag', revenue_min: '5000000' });
      await checkOrder({ near: '55.6,13.0', radius_km: '500', sort: 'distance', municipality: '2480' }, 9);
    });
  });
});
