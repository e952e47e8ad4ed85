// How many rows a driver yields, counted for real but only up to a cap: a capped count costs
// at most `cap` index entries, and past the cap the planner needs no more precision (such a
// driver loses to walking the sort order). Kept for a short while, since searches repeat shapes.
import type { Db } from '../database.js';
import type { Driver } from './predicates.js';
import { pluckOne } from './statements.js';
import { statRows } from './stats.js';

const TTL_MS = 60_000;
const MAX_ENTRIES = 5000;

interface State {
  counts: Map<string, { n: number; at: number }>;
  size: { rows: number; maxRowid: number; at: number } | null;
}

const states = new WeakMap<Db, State>();

function state(db: Db): State {
  let s = states.get(db);
  if (!s) states.set(db, (s = { counts: new Map(), size: null }));
  return s;
}

/** Companies in the register and the highest rowid (the span that slices divide). */
export function registerSize(db: Db): { rows: number; maxRowid: number } {
  const s = state(db);
  const now = Date.now();
  if (!s.size || now - s.size.at > TTL_MS) {
    // Rows are numbered densely and never deleted (imports update in place or append), so the
    // highest rowid is the size, read from the end of the table's B-tree.
    const maxRowid = (pluckOne(db, 'SELECT coalesce(max(rowid), 0) FROM companies', []) as number) ?? 0;
    s.size = { rows: maxRowid, maxRowid, at: now };
  }
  return s.size;
}

/** The rows a driver yields, or `cap` when there are at least that many. */
export function estimateDriver(db: Db, driver: Driver, cap: number): number {
  const s = state(db);
  const sql =
    driver.kind === 'index'
      ? `SELECT count(*) FROM (SELECT 1 FROM companies c INDEXED BY ${driver.index} WHERE ${driver.sql} LIMIT ?)`
      : `SELECT count(*) FROM (${driver.sql} LIMIT ?)`;
  const key = `${cap}\u0000${sql}\u0000${JSON.stringify(driver.params)}`;
  const now = Date.now();
  const hit = s.counts.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.n;
  const n = pluckOne(db, sql, [...driver.params, cap]) as number;
  if (s.counts.size >= MAX_ENTRIES) s.counts.delete(s.counts.keys().next().value as string);
  s.counts.set(key, { n, at: now });
  return n;
}

/**
 * The rows a driver yields: from the statistics when they hold it (`known`: not capped, though
 * a prefix or a box is itself an estimate), else counted up to `cap`.
 */
export function driverRows(db: Db, driver: Driver, cap: number, status: readonly string[] | null): { rows: number; known: boolean } {
  if (driver.stat) {
    const n = statRows(db, driver.stat, driver.stat.byStatus ? status : null);
    if (n !== null) return { rows: Math.round(n), known: true };
  }
  const rows = estimateDriver(db, driver, cap);
  return { rows, known: rows < cap };
}
