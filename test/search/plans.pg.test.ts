// The PostgreSQL plans of issue 13's shapes, pinned: on a register of 60,000 companies from the
// real generator (so with the real skew: dense cities, common name words, broad categories) and
// real statistics (ANALYZE), each shape's statements drive from the index meant for them
// (EXPLAIN (FORMAT JSON)), never from a scan of the whole table, and include_total on one legal
// form comes from the counts table. Also: keyset positions made by one store are read the same
// way by the other, and a count out of time is estimated and says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_QUERY_SCHEMA, toSearchQuery } from '../../src/core/search-params.js';
import { seedRegister } from '../../src/app/seed-register.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { KeysetPosition } from '../../src/store/store.js';
import { discoverShapes, type Shapes } from '../../bench/lib/shapes.js';
import { DATABASE_URL, openFreshPgStore, PG_SKIP_REASON } from '../helpers/pg.js';
import { indexesOf, isSentinel, nodes, type PlanNode, planNodes, planTree, recordStatements, scansCompanies } from '../helpers/pg-plan.js';
import { sharedRegister, startPgSearchServer, type SearchServer } from '../helpers/search-server.js';
import type { Params } from './reference.js';

const query = (p: Params) => toSearchQuery(SEARCH_QUERY_SCHEMA.parse(p));

if (!DATABASE_URL) {
  describe('PostgreSQL plans', () => it.skip(PG_SKIP_REASON, () => {}));
} else {
  describe('PostgreSQL plans of issue 13’s shapes, on 60,000 companies', () => {
    let store: PgStore;
    let shapes: Shapes;
    let statements: ReturnType<typeof recordStatements>;
    beforeAll(async () => {
      store = await openFreshPgStore();
      await seedRegister(store, { count: 60_000 });
      shapes = await discoverShapes(store);
      statements = recordStatements(store);
    }, 300_000);
    afterAll(async () => store?.close());

    /** Every SELECT over companies that a search ran, with the plan nodes EXPLAIN shows for it. */
    const explain = async (p: string) => {
      statements.take();
      const q = query(Object.fromEntries(new URLSearchParams(p)));
      await store.companies.search(q, null);
      if (q.include_total) await store.companies.count(q.filters, 1000);
      const ran = statements.take().filter((s) => /^SELECT/.test(s.sql) && !/max\(rowid\)|pg_stats/.test(s.sql));
      const out: { sql: string; nodes: PlanNode[] }[] = [];
      for (const s of ran) out.push({ sql: s.sql, nodes: await planNodes(store, s) });
      return out;
    };
    const indexes = indexesOf;
    const scansTable = scansCompanies;

    it('near the densest city, 10 km, default sort: walks the name order of active companies', async () => {
      const [first, ...rest] = (await explain(shapes.paths[0])).filter((s) => /ORDER BY/.test(s.sql));
      expect(indexes(first)).toContain('companies_status_name');
      expect(first.sql).not.toContain('<@'); // the box is tested on rows walked, not collected
      for (const s of [first, ...rest]) expect(scansTable(s)).toBe(false);
    });

    it('a one-letter word and the commonest word: names through the name index, then the full-text index or rowid spans', async () => {
      const plans = await explain(shapes.paths[1]);
      expect(shapes.paths[1]).toMatch(/^q=\p{L}\+/u);
      expect(plans.length).toBeGreaterThan(0);
      // (The status's count in company_counts, a lookup of its key, is not a read of companies.)
      for (const s of plans.filter((p) => !/FROM company_counts/.test(p.sql))) {
        expect(scansTable(s), s.sql).toBe(false);
        expect(indexes(s).some((i) => ['companies_status_name', 'companies_words', 'companies_pkey'].includes(i!)), s.sql).toBe(true);
      }
    });

    it('the largest municipality and a broad category: that municipality’s own name index', async () => {
      const [first] = (await explain(shapes.paths[2])).filter((s) => /ORDER BY/.test(s.sql));
      expect(indexes(first)).toEqual(['companies_municipality_county']);
    });

    it('a postal prefix and an employee class: the name walk, else the postal index, never the table', async () => {
      const plans = (await explain(shapes.paths[3])).filter((s) => /ORDER BY/.test(s.sql));
      expect(indexes(plans[0])).toContain('companies_status_name');
      if (plans.length > 1) expect(indexes(plans[1])).toContain('companies_postal');
      for (const s of plans) expect(scansTable(s)).toBe(false);
    });

    // The bench's `hard` class and the slowest revenue-desc query: each from the index that
    // holds its filters (company migration 4), its other filters tested on that index's entries.
    const rowReads = async (p: string) => (await explain(p)).filter((s) => /ORDER BY/.test(s.sql) && !/count\(\*\)/.test(s.sql));
    const conds = (plan: { nodes: PlanNode[] }, index: string) => plan.nodes.filter((n) => n['Index Name'] === index).map((n) => n['Index Cond'] ?? '').join(' ');

    it('sort=-revenue within a legal form: that legal form’s revenue order, not all revenues', async () => {
      const plans = await rowReads('sort=-revenue&legal_form=ekonomisk_forening');
      expect(indexes(plans[0])).toEqual(['companies_legal_form_revenue']);
      for (const s of plans) expect(scansTable(s)).toBe(false);
    });

    it('sort=-revenue within a broad legal form: the walk of all revenues (the legal form’s index leaves it out)', async () => {
      const plans = await rowReads('sort=-revenue&county=01&legal_form=aktiebolag');
      expect(indexes(plans[0])).toEqual(['companies_revenue']);
    });

    // Company migration 5: a figure's order holds only the companies that have the figure.
    for (const [p, index] of [
      ['sort=profit&county=01', 'companies_profit'],
      ['sort=-equity_ratio', 'companies_equity_ratio'],
      ['sort=revenue_growth&status=all', 'companies_revenue_growth'],
    ] as const) {
      it(`${p}: the figure's own order, which holds only the companies with the figure`, async () => {
        const plans = await rowReads(p);
        expect(indexes(plans[0])).toEqual([index]);
        for (const s of plans) expect(scansTable(s)).toBe(false);
      });
    }

    it('the figures’ indexes leave out the companies without the figure', async () => {
      const defs = await store.db.query<{ indexname: string; indexdef: string }>(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname IN ('companies_revenue', 'companies_profit', 'companies_equity_ratio', 'companies_revenue_growth')",
      );
      expect(defs.rows.map((r) => r.indexname).sort()).toEqual(['companies_equity_ratio', 'companies_profit', 'companies_revenue', 'companies_revenue_growth']);
      for (const r of defs.rows) expect(r.indexdef).toMatch(/WHERE \(\w+ IS NOT NULL\)$/);
    });

    it('sort=-revenue with a category and an employee class: that class’s revenue order', async () => {
      const plans = await rowReads('sort=-revenue&category=bygg&employees_class=10-19');
      expect(indexes(plans[0])).toEqual(['companies_employees_revenue']);
      for (const s of plans) expect(scansTable(s)).toBe(false);
    });

    it('a legal form with a flag none of its companies have: the flag tested on the legal form’s entries', async () => {
      const plans = await rowReads('legal_form=bostadsrattsforening&f_skatt=true');
      expect(plans.length).toBe(1); // collected at once, no walk of the name order first
      expect(indexes(plans[0])).toEqual(['companies_legal_form_revenue']);
      expect(conds(plans[0], 'companies_legal_form_revenue')).toMatch(/f_skatt/);
    });

    it('a county and a municipality outside it: the county tested on the municipality’s entries', async () => {
      const plans = await rowReads('county=01&municipality=2580');
      expect(plans.length).toBe(1);
      expect(indexes(plans[0])).toEqual(['companies_municipality_county']);
      expect(conds(plans[0], 'companies_municipality_county')).toMatch(/county_code/);
    });

    it('verified with filters no index holds: the name order of verified companies', async () => {
      const plans = await rowReads('verified=true&website_status=okand&trend=minskande');
      expect(indexes(plans[0])).toEqual(['companies_verified_name']);
      for (const s of plans) expect(scansTable(s)).toBe(false);
    });

    it('an SNI prefix with a postal prefix: the name walk, never the table', async () => {
      const plans = await rowReads('sni=62&postal_code=11');
      expect(indexes(plans[0])).toContain('companies_status_name');
      for (const s of plans) expect(scansTable(s)).toBe(false);
    });

    it('sort=-employees_class: the values a few to a statement, and a walk that read all of its value is not collected again', async () => {
      const plans = await rowReads('sort=-employees_class&county=01');
      // Sixteen values, each its own stretch: at most three statements (4, 8, 4 values), no collect.
      expect(plans.length).toBeLessThanOrEqual(3);
      expect(plans.filter((s) => /ORDER BY c\.rowid \+ 0/.test(s.sql))).toEqual([]);
      for (const s of plans) expect(scansTable(s)).toBe(false);
    });

    it('sort=-employees_class: a value’s walk ends with its sentinel, read from the walked index alone and run only when the walk falls short', async () => {
      statements.take();
      await store.companies.search(query({ sort: '-employees_class', county: '01' }), null);
      const [first] = statements.take().filter((s) => /true AS cut/.test(s.sql));
      const tree = await planTree(store, first, true);
      const sentinels = nodes(tree).filter(isSentinel);
      expect(sentinels.length).toBeGreaterThan(1);
      for (const s of sentinels) {
        const entry = nodes(s).find((n) => n['Index Name'] === 'companies_employees');
        expect(entry?.['Node Type']).toBe('Index Only Scan');
      }
      // The top classes hold a few companies: their walks fall short and their sentinels run.
      expect(sentinels[0]['Actual Loops']).toBe(1);
    });

    it('a stretch alone has no sentinel (a walk that falls short is collected, as before)', async () => {
      statements.take();
      await store.companies.search(query(Object.fromEntries(new URLSearchParams(shapes.paths[2]))), null);
      expect(statements.take().filter((s) => /true AS cut/.test(s.sql))).toEqual([]);
    });

    it('include_total on the commonest legal form: from company_counts, exact', async () => {
      const plans = await explain(shapes.total);
      const counts = plans.filter((s) => /FROM company_counts/.test(s.sql));
      expect(counts.length).toBeGreaterThan(0);
      expect(plans.filter((s) => /count\(\*\)/.test(s.sql) && /FROM companies/.test(s.sql))).toEqual([]);
      const f = query(Object.fromEntries(new URLSearchParams(shapes.total))).filters;
      const exact = await store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM companies WHERE legal_form = $1 AND status = 'aktiv'", [f.legal_form![0]]);
      expect(await store.companies.count(f, 1000)).toEqual({ total: exact.rows[0].n, estimated: false });
    });

    it('a count without time left is estimated from the statistics, and says so', async () => {
      const f = query({ website_status: 'har_hemsida', status: 'all' }).filters;
      const exact = await store.companies.count(f, 10_000);
      expect(exact.estimated).toBe(false);
      const estimate = await store.companies.count(f, 0);
      expect(estimate.estimated).toBe(true);
      expect(Math.abs(estimate.total - exact.total) / exact.total).toBeLessThan(0.25);
    });

    it('an estimate of what the statistics know nothing of (an SNI prefix, many words) comes from a sample of the rows (found by a review, 2026-11-29: 2,443 for 68,230, 1 for 136,050)', async () => {
      const word = (await store.db.query<{ name: string }>('SELECT name FROM companies ORDER BY rowid LIMIT 1')).rows[0].name.split(' ')[0];
      for (const params of [{ sni: '4', status: 'all' }, { q: `${word} ${word} ${word}`, status: 'all' }, { sni: '4', q: 'ab', status: 'all' }]) {
        const f = query(params).filters;
        const exact = await store.companies.count(f, 10_000);
        expect(exact.estimated, JSON.stringify(params)).toBe(false);
        expect(exact.total, JSON.stringify(params)).toBeGreaterThan(20);
        const estimate = await store.companies.count(f, 0);
        expect(estimate.estimated).toBe(true);
        expect(Math.abs(estimate.total - exact.total) / exact.total, `${JSON.stringify(params)}: ${estimate.total} for ${exact.total}`).toBeLessThan(0.35);
      }
    });
  });

  describe('keyset positions carry over between the stores', () => {
    let pg: SearchServer<PgStore>;
    beforeAll(async () => {
      pg = await startPgSearchServer();
    });
    afterAll(async () => pg?.close());

    for (const p of [
      { status: 'all' },
      { sort: '-revenue', status: 'all' },
      { sort: '-employees_class' },
      { q: 'ab' },
      { q: 'bygg', sort: '-relevance' },
      { near: '59.3293,18.0686', radius_km: '300', sort: 'distance' },
      { sort: 'registration_date', county: '01' },
    ] as Params[]) {
      it(new URLSearchParams(p).toString(), async () => {
        const sqlite = openSqliteStore(await sharedRegister());
        try {
          const q = query({ ...p, limit: '37' });
          let fromSqlite: KeysetPosition | null = null;
          let fromPg: KeysetPosition | null = null;
          for (let page = 0; page < 4; page++) {
            const a = await sqlite.companies.search(q, fromSqlite);
            const b = await pg.store.companies.search(q, fromPg);
            // Each store continues from the other's position exactly as from its own.
            const aFromB = fromPg ? await sqlite.companies.search(q, fromPg) : a;
            const bFromA = fromSqlite ? await pg.store.companies.search(q, fromSqlite) : b;
            expect(b.rows.map((c) => c.id)).toEqual(a.rows.map((c) => c.id));
            expect(bFromA.rows.map((c) => c.id)).toEqual(a.rows.map((c) => c.id));
            expect(aFromB.rows.map((c) => c.id)).toEqual(a.rows.map((c) => c.id));
            expect(b.next).toEqual(a.next);
            fromSqlite = a.next;
            fromPg = b.next;
            if (!a.next) break;
          }
        } finally {
          await sqlite.close();
        }
      });
    }
  });
}
