// Every filter of GET /companies, alone and combined, over real HTTP: the records returned
// (all pages) are exactly the register's matching records, computed independently from a full
// read of the table (reference.ts), in the expected order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '../../src/core/company.js';
import { type SearchServer, search, searchAll, forEachStore } from '../helpers/search-server.js';
import { expected, haversine, type Params } from './reference.js';

forEachStore((start) => {
  let s: SearchServer;
  let all: Company[];

  beforeAll(async () => {
    s = await start();
    all = s.all();
  });
  afterAll(async () => s?.close());

  const mostCommon = <T>(values: T[]): T => {
    const counts = new Map<T, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  };

  async function check(p: Params, expectSome = true): Promise<Company[]> {
    const got = await searchAll(s, p);
    const want = expected(all, p);
    expect(got.map((c) => c.id)).toEqual(want.map((c) => c.id));
    if (expectSome) expect(want.length).toBeGreaterThan(0);
    return got;
  }

  describe('each filter alone', () => {
    it('status: default aktiv, lists, all', async () => {
      const got = await check({});
      expect(got.every((c) => c.status === 'aktiv')).toBe(true);
      expect(got.length).toBe(all.filter((c) => c.status === 'aktiv').length);
      const two = await check({ status: 'konkurs,vilande' });
      expect(new Set(two.map((c) => c.status))).toEqual(new Set(['konkurs', 'vilande']));
      expect((await check({ status: 'all' })).length).toBe(all.length);
    });

    it('county by code and by name, municipality by code and name, city', async () => {
      const got = await check({ county: '01' });
      expect(got.every((c) => c.county_code === '01')).toBe(true);
      expect(got.length).toBe(all.filter((c) => c.county_code === '01' && c.status === 'aktiv').length);
      await check({ county: 'Skåne' });
      await check({ county: 'vastra gotalands lan,01' });
      const m = mostCommon(all.map((c) => c.municipality_code));
      expect((await check({ municipality: m })).every((c) => c.municipality_code === m)).toBe(true);
      await check({ municipality: all.find((c) => c.municipality_code === m)!.municipality.toUpperCase() });
      const city = mostCommon(all.map((c) => c.address.city));
      expect((await check({ city: city.toLowerCase() })).every((c) => c.address.city === city)).toBe(true);
    });

    it('postal_code prefixes of 1 to 5 digits', async () => {
      const pc = all[0].address.postal_code.replace(' ', '');
      for (const len of [1, 2, 3, 5]) {
        const got = await check({ postal_code: pc.slice(0, len), status: 'all' });
        expect(got.every((c) => c.address.postal_code.replace(' ', '').startsWith(pc.slice(0, len)))).toBe(true);
      }
      await check({ postal_code: `${pc.slice(0, 3)} ${pc.slice(3)},9` });
    });

    it('legal_form, with and without diacritics', async () => {
      expect((await check({ legal_form: 'aktiebolag' })).every((c) => c.legal_form === 'aktiebolag')).toBe(true);
      await check({ legal_form: 'ekonomisk_forening,bostadsrattsforening' });
    });

    it('category includes subcategories', async () => {
      const top = await check({ category: 'bygg' });
      const slugs = new Set(top.map((c) => c.category.slug));
      expect(slugs.size).toBeGreaterThan(1);
      expect([...slugs].every((x) => ['bygg', 'husbyggnad', 'snickerier', 'elinstallation', 'vvs', 'maleri', 'takarbeten'].includes(x))).toBe(true);
      await check({ category: 'elinstallation,handel' });
    });

    it('sni prefixes match any of a company’s codes', async () => {
      const got = await check({ sni: '43', status: 'all' });
      expect(got.every((c) => c.sni_codes.some((x: string) => x.startsWith('43')))).toBe(true);
      // Some match through a secondary code only.
      expect(got.some((c) => !c.sni_codes[0].startsWith('43'))).toBe(true);
      await check({ sni: '68203,4' });
    });

    it('website_status, trend, employees_class', async () => {
      await check({ website_status: 'har_hemsida' });
      await check({ website_status: 'okand' });
      await check({ trend: 'växande,minskande' });
      await check({ employees_class: '1-4,10-19' });
    });

    it('every boolean, both ways', async () => {
      for (const flag of ['has_financials', 'f_skatt', 'vat_registered', 'employer_registered', 'verified']) {
        const yes = await check({ [flag]: 'true', status: 'all' });
        const no = await check({ [flag]: 'false', status: 'all' });
        expect(yes.length + no.length).toBe(all.length);
        expect(yes.every((c) => c[flag] === true)).toBe(true);
      }
    });

    it('the advertising block is excluded when asked, and only then', async () => {
      const blocked = all.filter((c) => c.advertising_blocked && c.status === 'aktiv');
      expect(blocked.length).toBeGreaterThan(0);
      const got = await check({ exclude_advertising_blocked: 'true' });
      expect(got.some((c) => c.advertising_blocked)).toBe(false);
      const with_ = await check({ exclude_advertising_blocked: 'false' });
      expect(with_.length - got.length).toBe(blocked.length);
    });

    it('numeric bounds', async () => {
      const r = await check({ revenue_min: '1000000', revenue_max: '5000000' });
      expect(r.every((c) => c.revenue >= 1_000_000 && c.revenue <= 5_000_000)).toBe(true);
      await check({ revenue_max: '100000' });
      await check({ profit_min: '0' });
      await check({ profit_min: '-500000', profit_max: '-1' });
      await check({ equity_ratio_min: '0.5' });
      await check({ revenue_growth_min: '0.1' });
    });

    it('registration dates', async () => {
      const got = await check({ registered_from: '2020-01-01', registered_to: '2022-12-31' });
      expect(got.every((c) => c.registration_date >= '2020-01-01' && c.registration_date <= '2022-12-31')).toBe(true);
      await check({ registered_to: '1990-06-30', status: 'all' });
    });

    it('near with radius: within the radius, distance_km on each record', async () => {
      const got = await check({ near: '59.3293,18.0686', radius_km: '15' });
      for (const c of got) {
        expect(c.distance_km).toBeCloseTo(haversine(59.3293, 18.0686, c.location.lat, c.location.lng), 3);
        expect(c.distance_km).toBeLessThanOrEqual(15);
      }
      await check({ near: '57.7089,11.9746' }); // default radius 10 km
      await check({ near: '62.0,15.0', radius_km: '500' });
    });
  });

  describe('combined filters', () => {
    const combos: Params[] = [
      { county: '01', legal_form: 'aktiebolag', revenue_min: '500000' },
      { county: '01,14', f_skatt: 'true', employees_class: '1-4', sort: '-revenue' },
      { category: 'bygg', near: '59.33,18.06', radius_km: '50', sort: 'distance' },
      { q: 'bygg', county: '01' },
      { q: 'ab', revenue_min: '2000000', sort: '-revenue' },
      { q: 'konsult', status: 'all', has_financials: 'false' },
      { sni: '62', registered_from: '2015-01-01', sort: 'registration_date' },
      { near: '55.6,13.0', radius_km: '80', legal_form: 'enskild_naringsidkare', exclude_advertising_blocked: 'true' },
      { municipality: '0180', vat_registered: 'true', trend: 'växande', sort: '-profit' },
      { status: 'all', website_status: 'har_hemsida', equity_ratio_min: '0.3', revenue_growth_min: '0', sort: '-equity_ratio' },
      { postal_code: '1', city: 'stockholm', employer_registered: 'true' },
      { county: '25', municipality: '0180' }, // disjoint: nothing
    ];
    for (const p of combos) {
      it(new URLSearchParams(p).toString(), async () => {
        await check(p, p.municipality !== '0180' || p.county !== '25');
      });
    }
  });

  describe('fields and expand', () => {
    it('fields returns only id and the named fields (plus distance_km with near)', async () => {
      const body = await search(s, { fields: 'name,county,revenue', near: '59.33,18.06', limit: '5' });
      for (const c of body.data) expect(Object.keys(c).sort()).toEqual(['county', 'distance_km', 'id', 'name', 'revenue']);
    });

    it('expand=latest_financials adds the statement (or null) to each record', async () => {
      const body = await search(s, { expand: 'latest_financials', has_financials: 'true', limit: '10' });
      for (const c of body.data) {
        expect(c.latest_financials).not.toBeNull();
        expect(c.latest_financials.currency).toBe('SEK');
        expect(c.latest_financials.net_revenue).toBe(c.revenue);
      }
      const none = await search(s, { expand: 'latest_financials', has_financials: 'false', limit: '5' });
      for (const c of none.data) expect(c.latest_financials).toBeNull();
      const plain = await search(s, { limit: '5' });
      for (const c of plain.data) expect('latest_financials' in c).toBe(false);
    });
  });
});
