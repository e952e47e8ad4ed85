// Chooses, per query, where a search starts. Two ways to fill a page:
//   walk    - read the sort order's index from the cursor on and test each row; costs about
//             (page size / share of rows that pass) index entries;
//   collect - start from the driver that yields fewest rows, test them all, keep the top of
//             the sort; costs the driver's row count.
// Drivers are counted up to a cap (estimates.ts); the share that passes is the product of each
// filter's share (drivers' counts, else a prior). Filters are not independent, so a walk has a
// budget: past it, the walk stops and the page is collected instead. Relevance and distance
// have walks of their own (relevance.ts, distance.ts).
import type { SearchQuery } from '../../../core/search-params.js';
import type { Db } from '../database.js';
import { type After, collect } from './collect.js';
import { estimateDriver, registerSize } from './estimates.js';
import { allChecks, type Driver, type Predicate, type Predicates } from './predicates.js';
import { SORT_SPECS, sortPhases, type WalkSource } from './sort-keys.js';
import { type Hit, walk } from './walk.js';

/** Drivers are counted up to this many rows. */
export const ESTIMATE_CAP = 20_000;

export interface Choice {
  driver: Driver;
  predicate: Predicate;
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
    for (const driver of predicate.drivers) choices.push({ driver, predicate, rows: estimateDriver(db, driver, ESTIMATE_CAP) });
  }
  return choices.sort((a, b) => a.rows - b.rows || (a.driver.kind === 'index' ? -1 : 1));
}

/** The share of the register a predicate lets through, from its drivers' counts or its prior. */
export function shareOf(p: Predicate, choices: readonly Choice[], rows: number): number {
  const counted = choices.filter((c) => c.predicate === p);
  if (counted.length > 0) return Math.max(1, Math.min(...counted.map((c) => c.rows))) / Math.max(1, rows);
  return p.prior ?? 0.5;
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
  const size = registerSize(db).rows;
  const choices = rankDrivers(db, preds);
  let share = 1;
  for (const p of preds.list) if (!covered.has(p)) share *= shareOf(p, choices, size);
  const walkRows = need / Math.max(share, 1e-9);
  const best = choices[0] ?? null;
  const checks = allChecks(preds);
  const value = { sql: `c.${spec.column}`, params: [], nullable: spec.nullable };
  const collectFrom = (choice: Choice | null, why: string): Planned => ({
    hits: collect(db, choice?.driver ?? null, checks, value, descending, after, need),
    plan: `collect ${choice ? `${choice.driver.name} (~${choice.rows})` : 'scan'}${why}`,
  });
  if (best && best.rows <= walkRows) return collectFrom(best, `, walk ~${Math.round(walkRows)}`);
  const position = after ? { k: after.v, r: after.r } : null;
  const budget = best ? Math.max(2 * best.rows, ESTIMATE_CAP) : Math.max(size / 4, ESTIMATE_CAP);
  const result = walk(db, sortPhases(spec, descending, src, position), { need, checks, budget, firstChunk: walkRows * 1.5 });
  if (result.complete) return { hits: result.hits, plan: `walk ${src.index} ~${Math.round(walkRows)}, read ${result.read}` };
  return collectFrom(best, `, walk gave up after ${result.read}`);
}
