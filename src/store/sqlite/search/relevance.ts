// sort=relevance. A small candidate set (the rarest word's matches, or another filter's rows)
// is collected and ranked whole. A large one is walked tier by tier (text-query.ts), each tier
// in an order an index already has:
//   1 name begins with the query  - the name index, from the query to its prefix end
//   2 every word exact in the name - full-text matches of the exact words, by rowid
//   3 the last word as a prefix    - full-text matches with the prefix, by rowid
//   4 a word only in the industry  - the table by rowid
// so a broad query ("bygg", "ab") costs a page, not its hundred thousand matches.
import { ESTIMATE_CAP, rankDrivers, type PlanInput, type Planned } from './planner.js';
import { collect } from './collect.js';
import { allChecks, ftsAllWords, prefixEnd, type Sql } from './predicates.js';
import { TIER_EXACT, TIER_INDUSTRY, TIER_PREFIX, TIER_STARTS_WITH, tierOfValue, type TextQuery } from './text-query.js';
import { type Phase, type Position, walk } from './walk.js';

const TIER_CHECK = 'bolag_tier(?, c.name_sort, c.org_nr, c.category_slug, c.sni_codes) = ?';

export function relevancePage(input: PlanInput): Planned {
  const { db, query, preds, after, need } = input;
  const tq = preds.text as TextQuery;
  const descending = query.sort.descending;
  const checks = allChecks(preds);
  const value = { sql: 'bolag_rel(?, c.name_sort, c.org_nr, c.category_slug, c.sni_codes)', params: [tq.raw], nullable: false };
  const choices = rankDrivers(db, preds);
  const best = choices[0] ?? null;
  if (best && best.rows < ESTIMATE_CAP) {
    return { hits: collect(db, best.driver, checks, value, descending, after, need), plan: `collect ${best.driver.name} (~${best.rows}) by relevance` };
  }
  const status = query.filters.status;
  const phases = tierPhases(tq, descending, status && status.length === 1 ? status[0] : null, after ? { v: String(after.v), r: after.r } : null);
  const result = walk(db, phases, { need, checks, budget: 4 * ESTIMATE_CAP, firstChunk: need * 4 });
  if (result.complete) return { hits: result.hits, plan: `walk tiers, read ${result.read}` };
  return {
    hits: collect(db, best?.driver ?? null, checks, value, descending, after, need),
    plan: `collect ${best ? best.driver.name : 'scan'} by relevance, tier walk gave up after ${result.read}`,
  };
}

function tierPhases(tq: TextQuery, descending: boolean, status: string | null, after: { v: string; r: number } | null): Phase[] {
  const tierCheck = (tier: number): Sql => ({ sql: TIER_CHECK, params: [tq.raw, tier] });
  const byRowid = (from: (pos: Position | null) => Sql, tier: number): Phase => ({
    inner: from,
    order: 's.r',
    start: null,
    value: () => String(tier),
    check: tierCheck(tier),
  });
  const fts = (expr: string) => (pos: Position | null): Sql =>
    pos
      ? { sql: 'SELECT rowid AS r, NULL AS k FROM companies_fts WHERE companies_fts MATCH ? AND rowid > ? ORDER BY rowid', params: [expr, pos.r] }
      : { sql: 'SELECT rowid AS r, NULL AS k FROM companies_fts WHERE companies_fts MATCH ? ORDER BY rowid', params: [expr] };
  const table = (pos: Position | null): Sql =>
    pos
      ? { sql: 'SELECT c.rowid AS r, NULL AS k FROM companies c WHERE c.rowid > ? ORDER BY c.rowid', params: [pos.r] }
      : { sql: 'SELECT c.rowid AS r, NULL AS k FROM companies c ORDER BY c.rowid', params: [] };

  const phases = new Map<number, Phase>();
  // 1: names from the query to its prefix end, in name order.
  const index = status ? 'companies_status_name' : 'companies_name';
  const nameRange: Sql[] = [
    ...(status ? [{ sql: 'c.status = ?', params: [status] }] : []),
    { sql: 'c.name_sort >= ? AND c.name_sort < ?', params: [tq.folded, prefixEnd(tq.folded)] },
  ];
  phases.set(TIER_STARTS_WITH, {
    inner: (pos) => {
      const parts = [...nameRange];
      if (pos) {
        parts.push(
          descending
            ? { sql: 'c.name_sort <= ? AND (c.name_sort < ? OR c.rowid > ?)', params: [pos.k, pos.k, pos.r] }
            : { sql: '(c.name_sort, c.rowid) > (?, ?)', params: [pos.k, pos.r] },
        );
      }
      return {
        sql: `SELECT c.rowid AS r, c.name_sort AS k FROM companies c INDEXED BY ${index} WHERE ${parts.map((p) => `(${p.sql})`).join(' AND ')} ORDER BY c.name_sort${descending ? ' DESC' : ''}, c.rowid`,
        params: parts.flatMap((p) => p.params),
      };
    },
    order: descending ? 's.k DESC, s.r' : 's.k, s.r',
    start: null,
    value: (k) => `1${String(k)}`,
    check: tierCheck(TIER_STARTS_WITH),
  });
  phases.set(TIER_EXACT, byRowid(fts(ftsAllWords(tq, true) as string), TIER_EXACT));
  const prefixExpr = ftsAllWords(tq, false);
  phases.set(TIER_PREFIX, byRowid(prefixExpr ? fts(prefixExpr) : table, TIER_PREFIX));
  const industry = tq.words.some((w) => w.industry.codes.size > 0 || w.industry.categories.size > 0);
  if (industry) phases.set(TIER_INDUSTRY, byRowid(table, TIER_INDUSTRY));

  const order = [TIER_STARTS_WITH, TIER_EXACT, TIER_PREFIX, TIER_INDUSTRY];
  if (descending) order.reverse();
  const startTier = after ? tierOfValue(after.v) : null;
  const out: Phase[] = [];
  let started = startTier === null;
  for (const tier of order) {
    const phase = phases.get(tier);
    if (!started && tier === startTier) {
      started = true;
      if (phase) out.push({ ...phase, start: tier === TIER_STARTS_WITH ? { k: after!.v.slice(1), r: after!.r } : { k: null, r: after!.r } });
      continue;
    }
    if (started && phase) out.push(phase);
  }
  return out;
}
