// Chooses, per query, where a search starts. Two ways to fill a page:
//   walk    - read the sort order's index from the cursor on and test each row; costs about
//             (page size / share of rows that pass) index entries;
//   collect - start from the driver that yields fewest rows, test them all, keep the top of
//             the sort; costs the driver's row count.
// Drivers are counted up to a cap (estimates.ts); the share of rows that pass every filter
// together is read from a sample of the register (sample.ts), which also prices a capped driver.
// A sample can mislead (filters against the grain of the order), so a walk has a budget: past
// it, the walk stops and the page is collected instead. Relevance and distance have walks of
// their own (relevance.ts, distance.ts).
import type { SearchQuery } from '../../../core/search-params.js';
import type { Db } from '../database.js';
import { type After, collect } from './collect.js';
import { estimateDriver, registerSize } from './estimates.js';
import { allChecks, type Driver, type Predicate, type Predicates } from './predicates.js';
import { sampleShares } from './sample.js';
import { TUNING } from './tuning.js';
import { SORT_SPECS, sortPhases, type WalkSource } from './sort-keys.js';
import { type Hit, walk } from './walk.js';

/** Relative costs per row: walking (index entry, row, tests) and collecting (row, tests, sort). */
const WALK_COST = 1.0;
const COLLECT_COST = 1.4;

export interface Choice {
  driver: Driver;
  predicate: Predicate;
  /** Counted rows, capped at TUNING.estimateCap. */
  rows: number;
}

export interface Planned {
  hits: Hit[];
  /** What was done, for EXPLAIN-style diagnostics in tests and the bench. */
  plan: string;
}

export interface PlanInput {
  db: Db;
  query: SearchQuery;
  preds: Predicates;
  after: After | null;
  need: number;
}

/** Every driver's capped count, the smallest first. */
export function rankDrivers(db: Db, preds: Predicates, exclude?: (p: Predicate) => boolean): Choice[] {
  const choices: Choice[] = [];
  for (const predicate of preds.list) {
    if (exclude?.(predicate)) continue;
    // All words together are worth counting only when every word alone is common.
    const words = predicate.drivers.filter((d) => d.name !== 'q:all');
    const counted = words.map((driver) => ({ driver, predicate, rows: estimateDriver(db, driver, TUNING.estimateCap) }));
    const all = predicate.drivers.find((d) => d.name === 'q:all');
    if (all && counted.every((c) => c.rows >= TUNING.estimateCap)) counted.push({ driver: all, predicate, rows: estimateDriver(db, all, TUNING.estimateCap) });
    choices.push(...counted);
  }
  return choices.sort((a, b) => a.rows - b.rows || (a.driver.kind === 'index' ? -1 : 1));
}

export interface Assessment {
  /** The cheapest driver to collect from, with its estimated rows (beyond the cap when sampled). */
  best: (Choice & { estimate: number }) | null;
  /** Index entries a walk is expected to read for a page (Infinity when nothing passes). */
  walkRows: number;
  /** Collect rather than walk. */
  collect: boolean;
  why: string;
}

/**
 * Weighs collecting from the smallest driver against walking an order in which the predicates
 * in `walked` must be tested row by row (those the walk's own index settles are left out).
 * `collectCost` is the relative cost of collecting a row (higher when ranking needs a function).
 */
export function assess(db: Db, preds: Predicates, need: number, walked: readonly Predicate[], choices: readonly Choice[], collectCost = COLLECT_COST): Assessment {
  const first = choices[0];
  if (first && first.rows <= TUNING.smallDriver) return { best: { ...first, estimate: first.rows }, walkRows: Infinity, collect: true, why: 'small' };
  const size = registerSize(db).rows;
  // Sample every predicate but the text one (a function per row; its drivers' counts serve).
  const sampled = preds.list.filter((p) => p.name !== 'q');
  const shares = sampleShares(db, sampled, walked.filter((p) => p.name !== 'q'));
  const shareOf = (p: Predicate) => shares.each[sampled.indexOf(p)];
  let joint = shares.joint;
  const text = walked.find((p) => p.name === 'q');
  if (text) {
    const rows = Math.min(...choices.filter((c) => c.predicate === text).map((c) => c.rows), size);
    joint *= rows >= TUNING.estimateCap ? 0.1 : rows / Math.max(1, size);
  }
  let best: Assessment['best'] = null;
  for (const c of choices) {
    const estimate = c.rows < TUNING.estimateCap || c.predicate.name === 'q' ? c.rows : Math.max(c.rows, shareOf(c.predicate) * size);
    if (!best || estimate < best.estimate) best = { ...c, estimate };
  }
  const walkRows = need / joint;
  // A counted driver's cost is known; a walk's is a guess from a sample: the doubt goes to collecting.
  const margin = best !== null && best.rows < TUNING.estimateCap ? 2 : 1;
  const collect = best !== null && best.estimate * collectCost <= walkRows * WALK_COST * margin;
  return { best, walkRows, collect, why: `walk ~${Math.round(walkRows)}` };
}

export function sortedPage(input: PlanInput): Planned {
  const { db, query, preds, after, need } = input;
  const spec = SORT_SPECS[query.sort.key];
  const descending = query.sort.descending;
  const status = query.filters.status;
  const byStatus = query.sort.key === 'name' && status !== null && status.length === 1;
  const covered = new Set<Predicate>();
  const src: WalkSource = { index: byStatus ? 'companies_status_name' : spec.index, where: [], nulls: true };
  for (const p of preds.list) {
    if (byStatus && p.name === 'status') {
      src.where.push({ sql: 'c.status = ?', params: [status[0]] });
      covered.add(p);
    } else if (p.sortColumn === spec.column && p.range) {
      src.where.push(p.range);
      src.nulls = false;
      covered.add(p);
      if (spec.values) src.values = p.check.params as number[];
    }
  }
  const choices = rankDrivers(db, preds);
  const a = assess(db, preds, need, preds.list.filter((p) => !covered.has(p)), choices);
  const checks = allChecks(preds);
  const value = { sql: `c.${spec.column}`, params: [], nullable: spec.nullable };
  const collectFrom = (why: string): Planned => ({
    hits: collect(db, a.best?.driver ?? null, checks, value, descending, after, need),
    plan: `collect ${a.best ? `${a.best.driver.name} (~${Math.round(a.best.estimate)})` : 'scan'}, ${why}`,
  });
  if (a.collect) return collectFrom(a.why);
  const position = after ? { k: after.v, r: after.r } : null;
  const size = registerSize(db).rows;
  const budget = a.best ? Math.max(2 * a.best.estimate, 4 * a.walkRows, TUNING.estimateCap) : Math.max(size / 4, TUNING.estimateCap);
  const result = walk(db, sortPhases(spec, descending, src, position), { need, checks, budget: budget * TUNING.walkBudgetScale, firstChunk: Math.min(a.walkRows * 1.5, 4096) });
  if (result.complete) return { hits: result.hits, plan: `walk ${src.index} ~${Math.round(a.walkRows)}, read ${result.read}` };
  return collectFrom(`walk gave up after ${result.read}`);
}
