// SQL functions the search plans call, registered once per connection.
import type { Db } from '../database.js';
import { parseTextQuery, relevanceValue, tierOf } from './text-query.js';

const registered = new WeakSet<Db>();

export function registerSearchFunctions(db: Db): void {
  if (registered.has(db)) return;
  registered.add(db);
  // A plan asks for a row's tier twice (to filter, then to sort): the last answer is kept.
  let last = { q: '', name: '', org: '', cat: '', sni: '', tier: 0 };
  const tier = (q: unknown, name: unknown, org: unknown, cat: unknown, sni: unknown): number => {
    if (q === last.q && name === last.name && org === last.org && cat === last.cat && sni === last.sni) return last.tier;
    const t = tierOf(parseTextQuery(String(q)), String(name), String(org), String(cat), String(sni ?? ''));
    last = { q: String(q), name: String(name), org: String(org), cat: String(cat), sni: String(sni ?? ''), tier: t };
    return t;
  };
  db.function('bolag_tier', { deterministic: true }, tier);
  db.function('bolag_rel', { deterministic: true }, (q, name, org, cat, sni) => {
    const t = tier(q, name, org, cat, sni);
    return t === 0 ? null : relevanceValue(t, String(name));
  });
}
