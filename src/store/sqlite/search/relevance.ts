// sort=relevance. A small candidate set (the rarest word's matches, or another filter's rows)
// is collected and ranked whole. A large one is walked tier by tier (text-query.ts), each tier
// in an order an index already has:
//   1 name begins with the query  - the name index, from the query to its prefix end
//   2 every word exact in the name - full-text matches of the exact words, by rowid
//   3 the last word as a prefix    - full-text matches with the prefix, by rowid
//   4 a word only in the industry  - the rarest word's rows (or the table) by rowid
// so a broad query ("bygg", "ab") costs a page, not its hundred thousand matches.
import { assess, rankDrivers, type PlanInput, type Planned } from './planner.js';
import { TUNING } from './tuning.js';
import { collect } from './collect.js';
import { allChecks, ftsAllWords, prefixEnd, type Sql } from './predicates.js';
import { TIER_EXACT, TIER_INDUSTRY, TIER_PREFIX, TIER_STARTS_WITH, tierOfValue, type TextQuery } from './text-query.js';
import { type Phase, type Position, walk } from './walk.js';
import { pluckOne } from './statements.js';
import { ftsStream, tierStreams } from './tier-streams.js';
import { mergedByStatus, STATUS_NAME_INDEX, statusesPresent } from './status-merge.js';
import type { Db } from '../database.js';

const TIER_CHECK = 'bolag_tier(?, c.name_sort, c.org_nr, c.category_slug, c.sni_codes, c.description) = ?';

/** Collecting ranks each row with a function: dearer per row than walking. */
const RELEVANCE_COLLECT_COST = 2.5;

export function relevancePage(input: PlanInput): Planned {
  const { db, query, preds, after, need } = input;
  const tq = preds.text as TextQuery;
  const descending = query.sort.descending;
  const checks = allChecks(preds);
  const value = { sql: 'bolag_rel(?, c.name_sort, c.org_nr, c.category_slug, c.sni_codes, c.description)', params: [tq.raw], nullable: false };
  const choices = rankDrivers(db, preds);
  // The tiers' own orders settle the text; a walk tests the other filters row by row.
  const a = assess(db, preds, need, preds.list.filter((p) => p.name !== 'q'), choices, RELEVANCE_COLLECT_COST);
  const collectBest = (why: string): Planned => ({
    hits: collect(db, a.best?.driver ?? null, checks, value, descending, after, need),
    plan: `collect ${a.best ? `${a.best.driver.name} (~${Math.round(a.best.estimate)})` : 'scan'} by relevance, ${why}`,
  });
  if (a.collect) return collectBest(a.why);
  // Several words, one of them rare: the tiers' streams would be sparse (names matching one
  // word of several) while the rarest word's rows are few. Ranked in one pass instead.
  const rarest = choices.find((c) => c.predicate.name === 'q' && c.driver.name !== 'q:all');
  const sparse = tq.words.length > 1;
  const status = query.filters.status;
  const oneStatus = status && status.length === 1 ? status[0] : null;
  // Unless the names that begin with the query fill the page by themselves ("Å AB": hundreds of
  // names begin so, while ranking every name holding the rare word costs thousands of rows).
  // A word found through the full-text index alone streams in rowid order by itself, and the
  // tiers of the name are listed at the cost of the rare word's rows (tier-streams.ts): walked.
  if (sparse && rarest && rarest.rows < TUNING.estimateCap && !rarest.driver.sliceable && !startsWithFills(input, tq, oneStatus)) {
    return collectBest(`rare word ${rarest.driver.name} (~${rarest.rows})`);
  }
  // The rarest word's rows, when they are few: the stream of the tiers the full-text index
  // cannot give in rowid order by itself.
  const words = choices.filter((c) => c.predicate.name === 'q' && c.driver.name !== 'q:all');
  const rare = words[0] && words[0].rows < TUNING.estimateCap ? words[0].driver : null;
  const phases = tierPhases(db, tq, descending, oneStatus, oneStatus ? [] : (status ?? statusesPresent(db)), after ? { v: String(after.v), r: after.r } : null, {
    sql: rare?.sql ?? null,
    params: rare?.params ?? [],
    fts: rare?.sliceable ? (rare.params[0] as string) : null,
  });
  const budget = Math.max(2 * (a.best?.estimate ?? 0), 4 * a.walkRows, TUNING.estimateCap);
  const result = walk(db, phases, { need, checks, budget: budget * TUNING.walkBudgetScale, firstChunk: Math.min(4096, Math.max(need * 2, a.walkRows)) });
  if (result.complete) return { hits: result.hits, plan: `walk tiers ~${Math.round(a.walkRows)}, read ${result.read}` };
  return collectBest(`tier walk gave up after ${result.read}`);
}

/**
 * Whether the first tier (names that begin with the query, read from the name index) holds the
 * rest of the page: ascending, no filter but the text and status, from the start or a cursor in
 * that tier. Counts at most a page of index entries.
 */
function startsWithFills(input: PlanInput, tq: TextQuery, status: string | null): boolean {
  const { db, query, preds, after, need } = input;
  if (query.sort.descending || preds.list.some((p) => p.name !== 'q' && p.name !== 'status')) return false;
  if (query.filters.status !== null && status === null) return false;
  if (after && tierOfValue(String(after.v)) !== TIER_STARTS_WITH) return false;
  const parts: Sql[] = [{ sql: 'c.name_sort >= ? AND c.name_sort < ?', params: [tq.folded, prefixEnd(tq.folded)] }];
  if (status) parts.push({ sql: 'c.status = ?', params: [status] });
  if (after) parts.push({ sql: '(c.name_sort, c.rowid) > (?, ?)', params: [String(after.v).slice(1), after.r] });
  if (!status) {
    // Every status: a seek under each (status-merge.ts); the count needs no order.
    const every = statusesPresent(db);
    parts.unshift({ sql: `c.status IN (${every.map(() => '?').join(', ') || 'NULL'})`, params: every });
  }
  const sql = `SELECT count(*) FROM (SELECT 1 FROM companies c INDEXED BY ${STATUS_NAME_INDEX} WHERE ${parts.map((p) => `(${p.sql})`).join(' AND ')} LIMIT ?)`;
  return (pluckOne(db, sql, [...parts.flatMap((p) => p.params), need]) as number) >= need;
}

function tierPhases(
  db: Db,
  tq: TextQuery,
  descending: boolean,
  status: string | null,
  /** When not one status: those asked for, or every one. */
  statuses: readonly string[],
  after: { v: string; r: number } | null,
  rare: { sql: string | null; params: unknown[]; fts: string | null },
): Phase[] {
  const tierCheck = (tier: number): Sql => ({ sql: TIER_CHECK, params: [tq.raw, tier] });
  const byRowid = (from: (pos: Position | null) => Sql, tier: number): Phase => ({
    inner: from,
    order: 's.r',
    start: null,
    value: () => String(tier),
    check: tierCheck(tier),
    readBack: true,
  });
  const table = (pos: Position | null): Sql =>
    pos
      ? { sql: 'SELECT c.rowid AS r, NULL AS k FROM companies c WHERE c.rowid > ? ORDER BY c.rowid', params: [pos.r] }
      : { sql: 'SELECT c.rowid AS r, NULL AS k FROM companies c ORDER BY c.rowid', params: [] };

  // The rarest word's own rows, in rowid order (when they are few): the stream of tiers that the
  // full-text index cannot give alone (an org nr prefix, industry matches).
  // A word of the full-text index alone streams from it (no list of its rows built per chunk).
  const fromWord = rare.fts
    ? ftsStream(rare.fts)
    : (pos: Position | null): Sql => ({
        sql: `SELECT c.rowid AS r, NULL AS k FROM companies c NOT INDEXED WHERE c.rowid IN (${rare.sql})${pos ? ' AND c.rowid > ?' : ''} ORDER BY c.rowid`,
        params: pos ? [...rare.params, pos.r] : rare.params,
      });
  const phases = new Map<number, Phase>();
  // 1: names from the query to its prefix end, in name order: one status's entries, or those
  // of several merged (status-merge.ts).
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
      if (!status) return mergedByStatus(statuses, 'c.name_sort', parts, `k${descending ? ' DESC' : ''}, r`);
      return {
        sql: `SELECT c.rowid AS r, c.name_sort AS k FROM companies c INDEXED BY ${STATUS_NAME_INDEX} WHERE ${parts.map((p) => `(${p.sql})`).join(' AND ')} ORDER BY c.name_sort${descending ? ' DESC' : ''}, c.rowid`,
        params: parts.flatMap((p) => p.params),
      };
    },
    order: descending ? 's.k DESC, s.r' : 's.k, s.r',
    start: null,
    value: (k) => `1${String(k)}`,
    check: tierCheck(TIER_STARTS_WITH),
  });
  // Null when a word is an org nr's (isOrgNrWord): its own rows are then few, and stream the tiers.
  const exactExpr = ftsAllWords(tq, true);
  const prefixExpr = ftsAllWords(tq, false);
  const streams = exactExpr && prefixExpr ? tierStreams(db, tq, exactExpr, prefixExpr) : null;
  phases.set(TIER_EXACT, byRowid(streams ? streams.exact : exactExpr ? ftsStream(exactExpr) : rare.sql ? fromWord : table, TIER_EXACT));
  phases.set(TIER_PREFIX, byRowid(streams ? streams.prefix : rare.sql ? fromWord : table, TIER_PREFIX));
  // Tier 4 also holds matches through the business description, which only the rarest word's
  // own rows (the full-text index over name, description and org nr) can list.
  if (rare.sql || tq.words.some((w) => w.industry.codes.size > 0 || w.industry.categories.size > 0)) {
    phases.set(TIER_INDUSTRY, byRowid(rare.sql ? fromWord : table, TIER_INDUSTRY));
  }

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
