// The planner's paths, exercised on the small register by shrinking its thresholds to match:
// every path (walk, collect, a walk that gives up, tier walks, rings, sliced counts) must give
// the reference answer; the plans must use the indexes they claim (EXPLAIN QUERY PLAN); a deep
// page must read what a first page reads; and a count out of time must estimate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '../../src/core/company.js';
import { SEARCH_QUERY_SCHEMA, toSearchQuery } from '../../src/core/search-params.js';
import { planSearch, searchCompanies } from '../../src/store/sqlite/company-search.js';
import { countMatches } from '../../src/store/sqlite/search/count.js';
import { registerSearchFunctions } from '../../src/store/sqlite/search/functions.js';
import { tune } from '../../src/store/sqlite/search/tuning.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { KeysetPosition } from '../../src/store/store.js';
import { type SearchServer, searchAll, sharedRegister, tunedSqliteSearch } from '../helpers/search-server.js';
import { expected, type Params } from './reference.js';

let s: SearchServer<SqliteStore>;
let all: Company[];
const tuned = tunedSqliteSearch();
beforeAll(() => {
  s = tuned.server();
  all = tuned.all();
});

const query = (p: Params) => toSearchQuery(SEARCH_QUERY_SCHEMA.parse(p));

const shapes: Params[] = [
  {},
  { county: '01' },
  { county: '01', legal_form: 'aktiebolag', sort: '-revenue' },
  { legal_form: 'bostadsrattsforening', f_skatt: 'true' },
  { verified: 'true', website_status: 'okänd', sort: '-profit' },
  { sni: '62', postal_code: '1' },
  { revenue_min: '10000000', sort: 'name' },
  { sort: '-employees_class', employees_class: '0,1-4', county: '12' },
  { category: 'bygg', employees_class: '10-19', sort: '-revenue' },
  { municipality: '0180', sort: 'registration_date' },
  { county: '25', municipality: '0180' },
  // Collects that test a filter on its own index before reading the row (index-probes.ts).
  { county: '01,25', municipality: '0180,2480', status: 'all' },
  { legal_form: 'handelsbolag', category: 'bygg', status: 'aktiv,konkurs', sort: '-revenue' },
  { municipality: '2480', county: '01', sort: 'registration_date', status: 'likvidation,aktiv' },
  { q: 'ab' },
  { q: 'bygg', county: '01' },
  { q: 'andersson' },
  { q: 'frisör', status: 'all' },
  { q: 'norden ab' },
  { q: 'ab', legal_form: 'ideell_forening' },
  { q: 'bygg', sort: '-revenue' },
  { q: 'el', sort: '-relevance', status: 'all' },
  { near: '59.3293,18.0686', radius_km: '30', sort: 'distance' },
  { near: '59.3293,18.0686', radius_km: '500', sort: 'distance', legal_form: 'aktiebolag', vat_registered: 'true' },
  { near: '63.83,20.26', radius_km: '400', sort: 'distance', municipality: '2480' },
  { near: '57.7,11.97', radius_km: '60', sort: '-revenue' },
  // Filters against the grain of the order: the sample promises a quick walk, the order disagrees.
  { sort: '-revenue', employees_class: '0,1-4' },
  { sort: 'revenue', employees_class: '50-99,100-199,200-499' },
  { sort: '-registration_date', status: 'avregistrerad,konkurs' },
];

describe('every path gives the reference answer', () => {
  const seen = new Set<string>();
  for (const p of shapes) {
    it(new URLSearchParams(p).toString() || '(no filters)', async () => {
      const got = await searchAll(s, p, 13);
      expect(got.map((c) => c.id)).toEqual(expected(all, p).map((c) => c.id));
      const plan = planSearch(s.store.db, query({ ...p, limit: '13' }), null).plan;
      seen.add(plan.split(' ')[0] + (plan.includes('gave up') ? ' gave-up' : '') + (plan.includes('tiers') ? ' tiers' : '') + (plan.startsWith('rings') ? '' : ''));
    });
  }
  it('walks that run out of budget fall back to collecting, and still answer right', async () => {
    const undo = tune({ walkBudgetScale: 0.001 });
    try {
      for (const p of [{ sort: '-revenue', county: '01' }, { q: 'ab', county: '12' }, { near: '59.3293,18.0686', radius_km: '500', sort: 'distance', legal_form: 'aktiebolag' }] as Params[]) {
        const got = await searchAll(s, p, 13);
        expect(got.map((c) => c.id)).toEqual(expected(all, p).map((c) => c.id));
        const plan = planSearch(s.store.db, query({ ...p, limit: '13' }), null).plan;
        expect(plan).toMatch(/gave up/);
        seen.add('gave-up');
      }
    } finally {
      undo();
    }
  });

  it('took walks, collects, give-ups, tier walks and rings', () => {
    const kinds = [...seen].join(' | ');
    for (const kind of ['walk', 'collect', 'gave-up', 'tiers', 'rings']) expect(kinds).toContain(kind);
  });
});

describe('distance pages, from random points', () => {
  // Deterministic "random" centres over Sweden and radii from 2 to 500 km: every page boundary
  // is a ring's inner edge, so a point lost on a box edge or by the ring test would show here.
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < 12; i++) {
    const near = `${(55.4 + rnd() * 13.5).toFixed(4)},${(11.2 + rnd() * 12.5).toFixed(4)}`;
    const radius = [2, 15, 60, 200, 500][i % 5];
    it(`near=${near} radius_km=${radius}`, async () => {
      const p = { near, radius_km: String(radius), sort: 'distance', status: 'all' };
      const got = await searchAll(s, p, 29);
      expect(got.map((c) => c.id)).toEqual(expected(all, p).map((c) => c.id));
    });
  }
});

describe('costs', () => {
  it('a deep page reads what the first page reads (keyset, not offset)', () => {
    const db = s.store.db;
    for (const p of [{ sort: 'name', status: 'all' }, { sort: '-revenue', status: 'all' }, { q: 'ab', status: 'all' }] as Params[]) {
      const q = query({ ...p, limit: '10' });
      const first = planSearch(db, q, null);
      // The position of row 2,000 in this order.
      let after: KeysetPosition | null = null;
      for (let i = 0; i < 200; i++) after = searchCompanies(db, q, after).next;
      const deep = planSearch(db, q, after);
      const read = (plan: string) => Number(/read (\d+)/.exec(plan)?.[1] ?? NaN);
      expect(deep.plan.split(' ')[0]).toBe(first.plan.split(' ')[0]);
      if (first.plan.startsWith('walk')) expect(read(deep.plan)).toBeLessThanOrEqual(Math.max(4 * read(first.plan), 200));
    }
  });

  it('counts in slices (through an index, full-text matches, or the table) add up exactly', () => {
    const db = s.store.db;
    registerSearchFunctions(db);
    for (const p of [{ county: '01,03' }, { q: 'ab' }, { status: 'all' }, { near: '59.3,18.0', radius_km: '300' }, { legal_form: 'aktiebolag', vat_registered: 'false' }, { q: 'bygg', city: 'stockholm' }] as Params[]) {
      expect(countMatches(db, query(p).filters, Infinity), JSON.stringify(p)).toEqual({ total: expected(all, p).length, estimated: false });
    }
  });

  it('a count out of time estimates from the slices it read, and says so', () => {
    const db = s.store.db;
    registerSearchFunctions(db);
    // trend is not on the name index (a covered filter is counted from its entries, at once).
    const filters = query({ status: 'all', trend: 'stabil' }).filters;
    const exact = countMatches(db, filters, Infinity);
    expect(exact).toEqual({ total: all.filter((c) => c.trend === 'stabil').length, estimated: false });
    let t = 0;
    const estimate = countMatches(db, filters, 35, () => (t += 10));
    expect(estimate.estimated).toBe(true);
    expect(Math.abs(estimate.total - exact.total) / exact.total).toBeLessThan(0.35);
  });
});

describe('EXPLAIN QUERY PLAN of the statements the planner writes', () => {
  let store: SqliteStore;
  const statements: string[] = [];
  beforeAll(async () => {
    store = openSqliteStore(await sharedRegister());
    const prepare = store.db.prepare.bind(store.db);
    store.db.prepare = ((sql: string) => {
      statements.push(sql);
      return prepare(sql);
    }) as typeof store.db.prepare;
  });
  afterAll(async () => store?.close());

  const planOf = (p: Params) => {
    statements.length = 0;
    const q = query(p);
    const plan = planSearch(store.db, q, null).plan;
    const main = statements.filter((sql) => sql.startsWith('SELECT') && !sql.includes('LIMIT 1 OFFSET') && !sql.startsWith('SELECT count(*)'));
    const details = main.map((sql) => store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(countParams(sql)).fill(null)).map((r: any) => r.detail).join(' | '));
    return { plan, details: details.join('\n') };
  };

  it('collecting from an index drives from that index, never a scan of companies', () => {
    const { plan, details } = planOf({ municipality: '2480', legal_form: 'aktiebolag' });
    expect(plan).toMatch(/^collect (municipality|legal_form)/);
    expect(details).toMatch(/USING INDEX companies_(place|legal_form)/);
    expect(details).not.toMatch(/SCAN c\b(?! USING)/);
  });

  it('collecting from full-text matches looks rows up by rowid', () => {
    const { plan, details } = planOf({ q: 'andersson bygg' });
    expect(plan).toMatch(/^collect q:/);
    expect(details).toContain('SEARCH c USING INTEGER PRIMARY KEY (rowid=?)');
    expect(details).toContain('VIRTUAL TABLE INDEX');
  });

  it('a walk reads the sort index in order, with no sort of its own', () => {
    const { plan, details } = planOf({ sort: '-revenue', status: 'all' });
    expect(plan).toMatch(/^walk companies_revenue/);
    expect(details).toMatch(/companies_revenue/);
    expect(details).not.toContain('USE TEMP B-TREE FOR ORDER BY');
  });

  it('rings read the R*Tree and look rows up by rowid', () => {
    const { plan, details } = planOf({ near: '59.3293,18.0686', radius_km: '500', sort: 'distance' });
    expect(plan).toMatch(/^rings/);
    expect(details).toContain('VIRTUAL TABLE INDEX');
    expect(details).toContain('SEARCH c USING INTEGER PRIMARY KEY (rowid=?)');
  });
});

function countParams(sql: string): number {
  return (sql.match(/\?/g) ?? []).length;
}
