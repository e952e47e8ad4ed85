// include_total: the number of matches, exact when counting fits the time budget, else an
// estimate. better-sqlite3 runs a statement to its end, so a long count is cut into slices of
// rowids, read in an order that spreads them over the whole register (bit-reversed), with the
// clock checked between slices. Out of time, the count of the slices read, scaled by the share
// of rowids they covered, is the estimate.
import type { SearchFilters } from '../../../core/search-params.js';
import type { CountResult } from '../../store.js';
import type { Db } from '../database.js';
import { driverSource } from './collect.js';
import { coveredByNameIndex } from './covered.js';
import { estimateDriver } from './estimates.js';
import { allChecks, buildPredicates, type Driver } from './predicates.js';
import { pluckOne } from './statements.js';
import { exactCountFromStats } from './stats.js';
import { TUNING } from './tuning.js';

export function countMatches(db: Db, filters: SearchFilters, budgetMs: number, now: () => number = () => performance.now()): CountResult {
  const started = now();
  const preds = buildPredicates(filters);
  if (preds.empty) return { total: 0, estimated: false };
  // One dimension (and status): the statistics hold the exact count.
  const fromStats = exactCountFromStats(db, filters, preds);
  if (fromStats !== null) return { total: fromStats, estimated: false };
  const checks = allChecks(preds);
  // Read now, not from the planner's cache: rows imported a moment ago must be counted.
  const maxRowid = (pluckOne(db, 'SELECT coalesce(max(rowid), 0) FROM companies', []) as number) ?? 0;
  if (preds.list.length === 0) return { total: pluckOne(db, 'SELECT count(*) FROM companies', []) as number, estimated: false };

  const drivers = preds.list.flatMap((p) => p.drivers).map((driver) => ({ driver, rows: estimateDriver(db, driver, TUNING.countInOneStatement) }));
  drivers.sort((a, b) => a.rows - b.rows);
  const small = drivers[0];
  // One filter with its own index (status alone, say): counted from the index, no row read.
  const indexOnly = preds.list.length === 1 && small?.driver.kind === 'index';
  if (small && (small.rows < TUNING.countInOneStatement || indexOnly)) {
    const src = driverSource(small.driver);
    const sql = `SELECT count(*) FROM ${src.from} WHERE (${src.where.sql}) AND ${checks.sql}`;
    return { total: pluckOne(db, sql, [...src.where.params, ...checks.params]) as number, estimated: false };
  }

  // Every filter on a column the name index carries (NAME_INDEX_COVERS: county, legal form, the
  // flags, near, …): counted from that index's entries alone, no row read. A tenth of the
  // table's bytes, so even the whole register counts well within the budget.
  if (preds.list.every((p) => p.name === 'status' || coveredByNameIndex(p))) {
    const sql = `SELECT count(*) FROM companies c INDEXED BY companies_status_name WHERE ${checks.sql}`;
    return { total: pluckOne(db, sql, checks.params) as number, estimated: false };
  }

  // Slices: through the best driver that can narrow to rowids, else the table itself.
  const sliceable = drivers.find((d) => d.driver.sliceable)?.driver ?? null;
  const sql = sliceSql(sliceable, checks.sql);
  const params = (lo: number, hi: number) => [...slicedParams(sliceable, lo, hi), ...checks.params];
  const span = Math.ceil((maxRowid + 1) / TUNING.countSlices);
  let matched = 0;
  let covered = 0;
  for (let i = 0; i < TUNING.countSlices; i++) {
    if (i > 0 && now() - started >= budgetMs) {
      return { total: Math.round((matched * (maxRowid + 1)) / Math.max(1, covered)), estimated: true };
    }
    const lo = bitReverse(i, TUNING.countSlices) * span;
    const hi = Math.min(lo + span, maxRowid + 1);
    if (lo >= hi) continue;
    matched += pluckOne(db, sql, params(lo, hi)) as number;
    covered += hi - lo;
  }
  return { total: matched, estimated: false };
}

/** Counts the rows with lo <= rowid < hi. */
function sliceSql(driver: Driver | null, checks: string): string {
  if (!driver) return `SELECT count(*) FROM companies c NOT INDEXED WHERE c.rowid >= ? AND c.rowid < ? AND ${checks}`;
  if (driver.kind === 'index') {
    return `SELECT count(*) FROM companies c INDEXED BY ${driver.index} WHERE (${driver.sql}) AND c.rowid >= ? AND c.rowid < ? AND ${checks}`;
  }
  // A full-text driver: the rowid range goes inside, where FTS5 seeks by it.
  return `SELECT count(*) FROM companies c NOT INDEXED WHERE c.rowid IN (${driver.sql} AND rowid >= ? AND rowid < ?) AND ${checks}`;
}

function slicedParams(driver: Driver | null, lo: number, hi: number): unknown[] {
  return driver ? [...driver.params, lo, hi] : [lo, hi];
}

function bitReverse(i: number, n: number): number {
  const bits = Math.log2(n);
  let r = 0;
  for (let b = 0; b < bits; b++) if (i & (1 << b)) r |= 1 << (bits - 1 - b);
  return r;
}
