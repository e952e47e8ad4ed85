// How many companies the narrowest counted filter (county, municipality, category, legal form)
// leaves, from company_counts, kept for a minute: a plan that walks an index in some order
// and tests the filters on each row (search/sorted.ts, relevance.ts) must know how rare the
// rows it looks for are, and PostgreSQL's statistics do not see the filters together.
import type { Queryable } from '../database.js';
import type { Condition } from './filters.js';
import { rows } from './sql.js';

const COUNTED: Record<string, string> = { county: 'county', municipality: 'municipality', category: 'category', legal_form: 'legal_form' };
const countCache = new WeakMap<Queryable, Map<string, { n: number; at: number }>>();

/** Companies of the smallest counted filter (county, municipality, category, legal form), or null. */
export async function smallestFilter(db: Queryable, filters: readonly Condition[]): Promise<number | null> {
  const counted = filters.filter((c) => COUNTED[c.name]);
  if (counted.length === 0) return null;
  let cache = countCache.get(db);
  if (!cache) countCache.set(db, (cache = new Map()));
  let smallest = Infinity;
  for (const c of counted) {
    const key = `${c.name}:${JSON.stringify(c.params)}`;
    let hit = cache.get(key);
    if (!hit || Date.now() - hit.at > 60_000) {
      const [r] = await rows<{ n: number }>(db, {
        sql: `SELECT coalesce(sum(n), 0)::float8 AS n FROM company_counts WHERE dim = ? AND value IN (${c.params.map(() => '?').join(', ')})`,
        params: [COUNTED[c.name], ...c.params],
      });
      if (cache.size > 2000) cache.clear();
      cache.set(key, (hit = { n: r.n, at: Date.now() }));
    }
    smallest = Math.min(smallest, hit.n);
  }
  return smallest;
}
