// Keyset paging over real HTTP: thousands of rows page by page with no duplicate and no gap, in
// every kind of order; cursors that are tampered with or reused with another query are refused;
// only limit may change between pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '../../src/core/company.js';
import { get, type SearchServer, search, searchAll, forEachStore } from '../helpers/search-server.js';
import { expected, type Params } from './reference.js';

forEachStore((start) => {
  let s: SearchServer;
  let all: Company[];
  beforeAll(async () => {
    s = await start();
    all = s.all();
  });
  afterAll(async () => s?.close());

  describe('paging through a few thousand rows', () => {
    const sets: Params[] = [
      { status: 'all' },
      { status: 'all', sort: '-revenue' },
      { status: 'all', sort: 'employees_class' },
      { status: 'all', sort: '-employees_class' },
      { q: 'ab', status: 'all' },
      { near: '62,16', radius_km: '500', sort: 'distance', status: 'all' },
    ];
    for (const p of sets) {
      it(new URLSearchParams(p).toString(), async () => {
        const want = expected(all, p);
        expect(want.length).toBeGreaterThan(1000);
        const got = await searchAll(s, p, 100);
        const ids = got.map((c) => c.id);
        expect(new Set(ids).size).toBe(ids.length); // no duplicate
        expect(ids.length).toBe(want.length); // no gap
        expect(ids).toEqual(want.map((c) => c.id));
      });
    }

    it('limit may change from page to page', async () => {
      const p = { sort: 'registration_date' };
      const want = expected(all, p).map((c) => c.id);
      const got: string[] = [];
      let cursor: string | undefined;
      let i = 0;
      do {
        const limit = [1, 7, 100, 33, 2][i++ % 5];
        const body = await search(s, { ...p, limit: String(limit), ...(cursor ? { cursor } : {}) });
        expect(body.pagination.limit).toBe(limit);
        got.push(...body.data.map((c: Company) => c.id));
        cursor = body.pagination.next_cursor;
      } while (cursor);
      expect(got).toEqual(want);
    });

    it('the last page says has_more false and carries no cursor', async () => {
      const p = { municipality: '0180', legal_form: 'handelsbolag' };
      const want = expected(all, p);
      expect(want.length).toBeGreaterThan(0);
      expect(want.length).toBeLessThanOrEqual(100);
      const exact = await search(s, { ...p, limit: String(want.length) });
      expect(exact.pagination).toEqual({ limit: want.length, has_more: false });
      if (want.length > 1) {
        const short = await search(s, { ...p, limit: String(want.length - 1) });
        expect(short.pagination.has_more).toBe(true);
        const last = await search(s, { ...p, limit: String(want.length - 1), cursor: short.pagination.next_cursor });
        expect(last.data.map((c: Company) => c.id)).toEqual([want[want.length - 1].id]);
        expect(last.pagination).toEqual({ limit: want.length - 1, has_more: false });
      }
    });
  });

  describe('cursors are opaque, signed and bound to the query', () => {
    let cursor: string;
    const base = { county: '01', sort: '-revenue', limit: '10' };
    beforeAll(async () => {
      cursor = (await search(s, base)).pagination.next_cursor;
      expect(typeof cursor).toBe('string');
    });

    const refused = async (params: Record<string, string>) => {
      const r = await get(s, `/companies?${new URLSearchParams(params)}`, s.key);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_parameter', param: 'cursor' });
      expect(r.headers.get('request-id')).toBe(r.body.meta.request_id);
    };

    it('works with the same query, and with another limit', async () => {
      expect((await get(s, `/companies?${new URLSearchParams({ ...base, cursor })}`, s.key)).status).toBe(200);
      expect((await get(s, `/companies?${new URLSearchParams({ ...base, limit: '50', cursor })}`, s.key)).status).toBe(200);
    });

    it('is refused when tampered with: any changed character', async () => {
      for (const i of [0, 5, Math.floor(cursor.length / 2), cursor.length - 1]) {
        const c = cursor[i] === 'A' ? 'B' : 'A';
        await refused({ ...base, cursor: cursor.slice(0, i) + c + cursor.slice(i + 1) });
      }
      // A forged payload with a valid-looking shape but no valid signature.
      const [payload] = cursor.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), v: 0 })).toString('base64url');
      await refused({ ...base, cursor: `${forged}.${cursor.split('.')[1]}` });
      await refused({ ...base, cursor: `${cursor}.x` });
    });

    it('is refused with other filters, sort, fields or expand', async () => {
      await refused({ ...base, county: '03', cursor });
      await refused({ ...base, legal_form: 'aktiebolag', cursor });
      await refused({ ...base, status: 'all', cursor });
      await refused({ ...base, sort: 'revenue', cursor });
      await refused({ county: '01', limit: '10', cursor });
      await refused({ ...base, fields: 'name', cursor });
      await refused({ ...base, expand: 'latest_financials', cursor });
      await refused({ ...base, q: 'ab', cursor });
    });

    it('the same filters spelled differently are the same query', async () => {
      const r = await get(s, `/companies?${new URLSearchParams({ county: 'Stockholms län', sort: '-revenue', limit: '10', cursor })}`, s.key);
      expect(r.status).toBe(200);
    });

    it('a list in another order, q in other letters or a default given explicitly is the same query', async () => {
      const first = { q: 'Bygg', county: '01,03', limit: '2' };
      const next = (await search(s, first)).pagination.next_cursor;
      expect(typeof next).toBe('string');
      for (const same of [
        { ...first, county: '03,01' },
        { ...first, county: '03,01,03' },
        { ...first, q: 'BYGG ' },
        { ...first, exclude_advertising_blocked: 'false' },
        { ...first, status: 'aktiv' },
        { ...first, sort: 'relevance' },
      ]) {
        const r = await get(s, `/companies?${new URLSearchParams({ ...same, cursor: next })}`, s.key);
        expect(r.status, JSON.stringify(same)).toBe(200);
      }
      await refused({ ...first, exclude_advertising_blocked: 'true', cursor: next });
      await refused({ ...first, q: 'bygga', cursor: next });
    });
  });

  describe('include_total', () => {
    it('counts exactly on the small register, with and without text and distance', async () => {
      for (const p of [{}, { county: '01' }, { q: 'bygg' }, { q: 'ab', f_skatt: 'true' }, { near: '59.33,18.06', radius_km: '100' }, { status: 'all' }, { sni: '4' }] as Params[]) {
        const body = await search(s, { ...p, include_total: 'true', limit: '1' });
        expect(body.pagination.total).toBe(expected(all, p).length);
        expect(body.pagination.total_estimated).toBe(false);
      }
    });

    it('is absent unless asked for', async () => {
      const body = await search(s, { limit: '1' });
      expect('total' in body.pagination).toBe(false);
      expect('total_estimated' in body.pagination).toBe(false);
    });
  });

  describe('GET /companies/{id} and GET /categories', () => {
    it('finds a company by id, by org_nr with and without hyphen, any status', async () => {
      const c = all.find((x) => x.status === 'avregistrerad')!;
      for (const key of [c.id, c.org_nr, c.org_nr.replace('-', '')]) {
        const r = await get(s, `/companies/${encodeURIComponent(key)}`, s.key);
        expect(r.status).toBe(200);
        const { latest_financials: _lf, ...plain } = c;
        expect(r.body.data).toEqual(plain);
        expect(r.body.meta.request_id).toBe(r.headers.get('request-id'));
      }
    });

    it('takes fields and expand', async () => {
      const c = all.find((x) => x.has_financials)!;
      const r = await get(s, `/companies/${c.id}?fields=name,revenue&expand=latest_financials`, s.key);
      expect(r.body.data).toEqual({ id: c.id, name: c.name, revenue: c.revenue, latest_financials: c.latest_financials });
    });

    it('lists the category tree with parents and SNI prefixes', async () => {
      const r = await get(s, '/categories', s.key);
      expect(r.status).toBe(200);
      const slugs = new Set(r.body.data.map((c: any) => c.slug));
      for (const c of r.body.data) {
        expect(Object.keys(c).sort()).toEqual(['name', 'parent', 'slug', 'sni_prefixes']);
        if (c.parent !== null) expect(slugs.has(c.parent)).toBe(true);
      }
      expect(r.body.data.find((c: any) => c.slug === 'vvs')).toMatchObject({ parent: 'bygg', sni_prefixes: ['4322'] });
    });
  });
});
