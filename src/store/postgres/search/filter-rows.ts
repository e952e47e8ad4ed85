// How many companies the narrowest counted filter (county, municipality, category, legal form)
// or rare status leaves, from company_counts, kept for a minute (or an SNI prefix, from the
// column's statistics): a plan that walks an index in some order and tests the filters on each row
// (search/sorted.ts, relevance.ts) must know how rare the rows it looks for are, and
// PostgreSQL's statistics do not see the filters together. Where a
// counted filter's own index also holds other filters' columns, those are counted with it on
// the index entries (capped), so that filters that (nearly) exclude each other are known to.
import { BROAD_LEGAL_FORMS } from '../company-migrations.js';
import type { Queryable } from '../database.js';
import type { Condition } from './filters.js';
import { and, rows, type Sql } from './sql.js';
import { sniKeyRows } from './word-stats.js';

const COUNTED: Record<string, string> = { county: 'county', municipality: 'municipality', category: 'category', legal_form: 'legal_form' };
const countCache = new WeakMap<Queryable, Map<string, { n: number; at: number }>>();

/** Companies of the smallest counted filter (county, municipality, category, legal form), SNI prefix or rare status, or null. */
export async function smallestFilter(db: Queryable, filters: readonly Condition[]): Promise<number | null> {
  const counted = filters.filter((c) => COUNTED[c.name]);
  const sni = filters.find((c) => c.name === 'sni');
  const status = filters.find((c) => c.name === 'status');
  if (counted.length === 0 && !sni && !status) return null;
  let cache = countCache.get(db);
  if (!cache) countCache.set(db, (cache = new Map()));
  // The condition's one parameter is the keys' array literal (filters.ts).
  let smallest = (sni ? await sniKeyRows(db, String(sni.params[0]).slice(1, -1).split(',')) : null) ?? Infinity;
  // A rare status (rekonstruktion: 0.2 %) leaves few rows: counted over every legal form. A
  // common one is left out, so that it never raises a budget that an unknown filter would set.
  if (status) {
    const n = await cached(db, cache, `status:${JSON.stringify(status.params)}`, {
      sql: `SELECT coalesce(sum(n), 0)::float8 AS n FROM company_counts WHERE dim = 'legal_form' AND status IN (${status.params.map(() => '?').join(', ')})`,
      params: status.params,
    });
    if (n <= RARE_STATUS_ROWS) smallest = Math.min(smallest, n);
  }
  for (const c of counted) {
    const n = await cached(db, cache, `${c.name}:${JSON.stringify(c.params)}`, {
      sql: `SELECT coalesce(sum(n), 0)::float8 AS n FROM company_counts WHERE dim = ? AND value IN (${c.params.map(() => '?').join(', ')})`,
      params: [COUNTED[c.name], ...c.params],
    });
    smallest = Math.min(smallest, n);
  }
  return smallest === Infinity ? null : smallest;
}

/** A status this rare is a filter worth counting (a walk budget is 20,000 rows without one). */
const RARE_STATUS_ROWS = 20_000;

/** A count from company_counts, kept for a minute. */
async function cached(db: Queryable, cache: Map<string, { n: number; at: number }>, key: string, query: Sql): Promise<number> {
  let hit = cache.get(key);
  if (!hit || Date.now() - hit.at > 60_000) {
    const [r] = await rows<{ n: number }>(db, query);
    if (cache.size > 2000) cache.clear();
    cache.set(key, (hit = { n: r.n, at: Date.now() }));
  }
  return hit.n;
}

/**
 * The filters that a counted filter's own index holds on its entries, beside it (company-
 * migrations.ts, migration 4): a narrow legal form's entries carry the status and the flags, a
 * municipality's the status and the county. `when`: the values that index holds.
 */
export const ENTRY_COVERS: Record<string, { covers: readonly string[]; when: (c: Condition) => boolean }> = {
  legal_form: {
    covers: ['status', 'has_financials', 'f_skatt', 'vat_registered', 'employer_registered', 'verified'],
    when: (c) => c.params.every((v) => !BROAD_LEGAL_FORMS.includes(v as string)),
  },
  municipality: { covers: ['status', 'county'], when: () => true },
};

/**
 * Companies that pass a counted filter together with the filters its index holds on its entries
 * (at least one beyond the status), counted on those entries up to `cap` (a row is read only for
 * an entry that passes them all), kept for a minute; the smallest such count, or null when no
 * counted filter's index holds another. legal_form=bostadsrattsforening&f_skatt=true: 24,000
 * entries and no row, instead of a walk or a collect of 24,000 rows that finds none.
 */
export async function coveredRows(db: Queryable, filters: readonly Condition[], cap: number): Promise<number | null> {
  let smallest: number | null = null;
  for (const lead of filters) {
    const entry = ENTRY_COVERS[lead.name];
    if (!entry || !entry.when(lead)) continue;
    const with_ = filters.filter((c) => entry.covers.includes(c.name));
    if (!with_.some((c) => c.name !== 'status')) continue;
    const where = and([lead, ...with_]);
    const key = `covered:${cap}:${where.sql}:${JSON.stringify(where.params)}`;
    let cache = countCache.get(db);
    if (!cache) countCache.set(db, (cache = new Map()));
    let hit = cache.get(key);
    if (!hit || Date.now() - hit.at > 60_000) {
      const [r] = await rows<{ n: number }>(db, { sql: `SELECT count(*)::float8 AS n FROM (SELECT 1 FROM companies c WHERE ${where.sql} LIMIT ?) x`, params: [...where.params, cap + 1] });
      if (cache.size > 2000) cache.clear();
      cache.set(key, (hit = { n: r.n, at: Date.now() }));
    }
    smallest = Math.min(smallest ?? Infinity, hit.n);
  }
  return smallest;
}
