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
import { driverRows, registerSize } from './estimates.js';
import { allChecks, type Driver, type Predicate, type Predicates, type Sql } from './predicates.js';
import { holdsStatus, indexProbe, PROBE_WHEN_FAILING } from './index-probes.js';
import { memberTest } from './member-test.js';
import { sampleShares, type Shares } from './sample.js';
import { TUNING } from './tuning.js';
import { SORT_SPECS, sortPhases } from './sort-keys.js';
import { type Hit, walk } from './walk.js';
import { walkSource } from './walk-source.js';

/** Relative costs per row: walking (index entry, row, tests) and collecting (row, tests, sort). */
const WALK_COST = 1.0;
const COLLECT_COST = 1.4;
/** An index entry tested on the entry itself (covered.ts), no row read. */
const ENTRY_COST = 0.08;

export interface Choice {
  driver: Driver;
  predicate: Predicate;
  /** Rows, from the statistics or counted (then capped at TUNING.estimateCap). */
  rows: number;
  /** Not capped: from the statistics, or counted below the cap. */
  known: boolean;
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
    const counted: Choice[] = words.map((driver) => ({ driver, predicate, ...driverRows(db, driver, TUNING.estimateCap, preds.status) }));
    const all = predicate.drivers.find((d) => d.name === 'q:all');
    if (all && counted.every((c) => c.rows >= TUNING.estimateCap)) counted.push({ driver: all, predicate, ...driverRows(db, all, TUNING.estimateCap, preds.status) });
    choices.push(...counted);
  }
  return choices.sort((a, b) => a.rows - b.rows || (a.driver.kind === 'index' ? -1 : 1));
}

export interface Assessment {
  /** The cheapest driver to collect from, with its estimated rows (beyond the cap when sampled). */
  best: (Choice & { estimate: number }) | null;
  /** Rows a walk is expected to read for a page (Infinity when nothing passes). */
  walkRows: number;
  /** What the walk costs, in walked rows (index entries tested on the entry count for less). */
  walkCost: number;
  /** Collect rather than walk. */
  collect: boolean;
  /** The sample's share of rows that pass a predicate (not the text one). */
  shareOf: (p: Predicate) => number;
  why: string;
}

/**
 * Weighs collecting from the smallest driver against walking an order in which the predicates
 * in `walked` must be tested row by row (those the walk's own index settles are left out).
 * `collectCost` is the relative cost of collecting a row (higher when ranking needs a function).
 * `covered`: those of `walked` the walk tests on its index entries, before reading a row.
 */
export function assess(
  db: Db,
  preds: Predicates,
  need: number,
  walked: readonly Predicate[],
  choices: readonly Choice[],
  collectCost = COLLECT_COST,
  covered: readonly Predicate[] = [],
): Assessment {
  const first = choices[0];
  if (first && first.rows <= TUNING.smallDriver) return { best: { ...first, estimate: first.rows }, walkRows: Infinity, walkCost: Infinity, collect: true, why: 'small', shareOf: () => 1 };
  const size = registerSize(db).rows;
  // Sample every predicate but the text one (a function per row; its drivers' counts serve).
  const sampled = preds.list.filter((p) => p.name !== 'q');
  const shares = sampleShares(db, sampled, walked.filter((p) => p.name !== 'q'));
  const shareOf = (p: Predicate) => shares.each[sampled.indexOf(p)];
  let joint = Math.max(shares.joint, anchoredJoint(db, choices, walked, sampled, shares));
  const text = walked.find((p) => p.name === 'q');
  if (text) {
    const rows = Math.min(...choices.filter((c) => c.predicate === text).map((c) => c.rows), size);
    joint *= rows >= TUNING.estimateCap ? 0.1 : rows / Math.max(1, size);
  }
  let best: Assessment['best'] = null;
  for (const c of choices) {
    const estimate = c.known || c.predicate.name === 'q' ? c.rows : Math.max(c.rows, shareOf(c.predicate) * size);
    if (!best || estimate < best.estimate) best = { ...c, estimate };
  }
  const entries = need / joint;
  let walkRows = entries;
  let walkCost = entries * WALK_COST;
  if (covered.length > 0) {
    // Entries that fail a covered filter cost an index entry each; only the rest read a row.
    const rest = walked.filter((p) => p.name !== 'q' && !covered.includes(p));
    const passing = covered.length === walked.length ? 1 : sampleShares(db, sampled, rest).joint * (text ? joint / shares.joint : 1);
    walkRows = Math.min(entries, need / passing);
    walkCost = entries * ENTRY_COST + walkRows * WALK_COST;
  }
  // A counted driver's cost is known; a walk's is a guess from a sample: the doubt goes to collecting.
  const margin = best !== null && best.known ? 2 : 1;
  const collect = best !== null && best.estimate * collectCost <= walkCost * margin;
  return { best, walkRows, walkCost, collect, shareOf: (p) => shareOf(p) ?? 1, why: `walk ~${Math.round(walkRows)}${covered.length ? ` rows of ~${Math.round(entries)} entries` : ''}` };
}

/**
 * The first chunk of a sorted walk, in multiples of the rows it is expected to read. The outer
 * query stops at the page's last row, so a chunk larger than needed costs nothing; one too
 * small costs a second pass over it (to find where it ended) and a second statement. The sample
 * misjudges the rows a walk needs by a few times either way (sort=-revenue&legal_form=
 * ekonomisk_forening: 2,800 expected, 7,400 read), hence four. Not for a walk value by value
 * (employee classes): each value's phase that ends is found by that second pass.
 */
const FIRST_CHUNK_SLACK = 4;

/**
 * A collect's checks, those filters first that most rows fail and that their own index can
 * test before the row is read (index-probes.ts), when the driver is an index that holds the
 * status (a lookup by rowid, or the status taken from the row, reads the row anyway).
 */
function probedFilters(preds: Predicates, a: Assessment): { checks: Sql; names: string } {
  const best = a.best;
  if (!best || best.driver.kind !== 'index' || !holdsStatus(best.driver.index)) return { checks: allChecks(preds), names: '' };
  const probes = new Map<Predicate, Sql>();
  for (const p of preds.list) {
    if (p === best.predicate || a.shareOf(p) > 1 - PROBE_WHEN_FAILING) continue;
    const probe = indexProbe(p, best.driver.index!);
    if (probe) probes.set(p, probe);
  }
  if (probes.size === 0) return { checks: allChecks(preds), names: '' };
  const rest = allChecks(preds, new Set(probes.keys()));
  const parts = [...probes.values(), rest];
  return {
    checks: { sql: parts.map((x) => `(${x.sql})`).join(' AND '), params: parts.flatMap((x) => x.params) },
    names: ` testing ${[...probes.keys()].map((p) => p.name).join(', ')} on its index`,
  };
}

/** Fewer rows than this of a filter in the sample say little about its share. */
const FEW_SEEN = 8;

/**
 * The joint share from the filter the statistics count best, where the sample sees too few of
 * its rows to tell: a sparse box (Visby, 10 km: a dozen rows of the sample's 4,096) comes out of
 * the sample's low end at a fifth of its real share, which prices a walk of the name index five
 * times too dear. The statistics give that filter's share; the sample, among the rows it saw
 * of it, how many pass the other walked filters too (none seen: those filters as if independent).
 */
function anchoredJoint(db: Db, choices: readonly Choice[], walked: readonly Predicate[], sampled: readonly Predicate[], shares: Shares): number {
  const anchor = choices.find((c) => c.known && c.predicate.name !== 'q' && walked.includes(c.predicate));
  if (!anchor) return 0;
  const i = sampled.indexOf(anchor.predicate);
  if (i < 0) return 0;
  const seen = shares.counts[i];
  let passing: number;
  if (seen >= FEW_SEEN) passing = shares.jointCount / seen;
  else passing = walked.filter((p) => p !== anchor.predicate && p.name !== 'q').reduce((share, p) => share * shares.each[sampled.indexOf(p)], 1);
  return Math.min(1, anchor.rows / Math.max(1, registerSize(db).rows)) * Math.min(1, passing);
}

export function sortedPage(input: PlanInput): Planned {
  const { db, query, preds, after, need } = input;
  const spec = SORT_SPECS[query.sort.key];
  const descending = query.sort.descending;
  // The index walked and the filters it settles (walk-source.ts).
  const { src, covered, onEntry, whole } = walkSource(db, query, preds, spec);
  const choices = rankDrivers(db, preds);
  const a = assess(db, preds, need, preds.list.filter((p) => !covered.has(p)), choices, COLLECT_COST, onEntry);
  const checks = allChecks(preds);
  const value = { sql: `c.${spec.column}`, params: [], nullable: spec.nullable };
  const collectFrom = (why: string): Planned => {
    const probed = probedFilters(preds, a);
    return {
      hits: collect(db, a.best?.driver ?? null, probed.checks, value, descending, after, need),
      plan: `collect ${a.best ? `${a.best.driver.name} (~${Math.round(a.best.estimate)})` : 'scan'}${probed.names}, ${why}`,
    };
  };
  if (a.collect) return collectFrom(a.why);
  const position = after ? { k: after.v, r: after.r } : null;
  const size = registerSize(db).rows;
  const budget = a.best ? Math.max(2 * a.best.estimate, 4 * a.walkRows, TUNING.estimateCap) : Math.max(size / 4, TUNING.estimateCap);
  const walkChecks = allChecks(preds, new Set(onEntry));
  // A walk of the order's own index may test its entries against one driver's rowids first.
  const member = onEntry.length === 0 && whole ? memberTest(a.best, a.walkRows, covered) : null;
  const result = walk(db, sortPhases(spec, descending, src, position), { need, checks: walkChecks, entryTest: member ?? undefined, budget: budget * TUNING.walkBudgetScale, firstChunk: spec.values ? Math.min(a.walkRows * 1.5, 4096) : a.walkRows * FIRST_CHUNK_SLACK });
  const members = member && a.best ? `, entries tested in ${a.best.driver.name}'s rowids (~${Math.round(a.best.estimate)})` : '';
  if (result.complete) return { hits: result.hits, plan: `walk ${src.index} ~${Math.round(a.walkRows)}${members}, read ${result.read}` };
  return collectFrom(`walk gave up after ${result.read}`);
}
