// SQL functions the search plans call, registered once per connection.
import type { Db } from '../database.js';
import { parseTextQuery, relevanceValue, tierOf } from './text-query.js';

const registered = new WeakSet<Db>();

export function registerSearchFunctions(db: Db): void {
  if (registered.has(db)) return;
  registered.add(db);
  // A plan asks for a row's tier twice (to filter, then to sort): the last answer is kept.
  let lq: unknown, ln: unknown, lo: unknown, lc: unknown, ls: unknown, ld: unknown;
  let lt = 0;
  const tier = (q: unknown, name: unknown, org: unknown, cat: unknown, sni: unknown, description: unknown): number => {
    if (name === ln && org === lo && q === lq && cat === lc && sni === ls && description === ld) return lt;
    lt = tierOf(parseTextQuery(String(q)), String(name), String(org), String(cat), sni === null ? '' : String(sni), description == null ? '' : String(description));
    ld = description;
    lq = q;
    ln = name;
    lo = org;
    lc = cat;
    ls = sni;
    return lt;
  };
  db.function('bolag_tier', { deterministic: true }, tier);
  db.function('bolag_rel', { deterministic: true }, (q, name, org, cat, sni, description) => {
    const t = tier(q, name, org, cat, sni, description);
    return t === 0 ? null : relevanceValue(t, String(name));
  });
}
