// The share of the register that passes each filter, and all of them together, read from a
// sample of rows: eight runs of 512 consecutive rowids spread over the table (cheap sequential
// reads). Together is what the capped counts of single drivers cannot tell: filters that are
// broad alone but rare jointly (county and legal form), or that exclude each other.
import type { Db } from '../database.js';
import { registerSize } from './estimates.js';
import type { Predicate } from './predicates.js';
import { prepared } from './statements.js';

const RUNS = 8;
const RUN = 512;
const TTL_MS = 60_000;

export interface Shares {
  /** Rows read. */
  size: number;
  /** Per predicate, in the order given. */
  each: number[];
  /** Of all predicates given as `joint`. */
  joint: number;
  /** Rows seen that pass each predicate, and all of `joint` together (what the shares are read from). */
  counts: number[];
  jointCount: number;
}

const cache = new WeakMap<Db, Map<string, { shares: Shares; at: number }>>();

export function sampleShares(db: Db, preds: readonly Predicate[], joint: readonly Predicate[]): Shares {
  const { maxRowid } = registerSize(db);
  const ranges: number[] = [];
  if (maxRowid <= RUNS * RUN) ranges.push(1, maxRowid);
  else for (let i = 0; i < RUNS; i++) {
    const lo = Math.floor(((i + 0.5) * maxRowid) / RUNS) - RUN / 2;
    ranges.push(lo, lo + RUN - 1);
  }
  const sums = preds.map((p) => `sum(coalesce((${p.check.sql}), 0))`);
  const jointSql = joint.length ? joint.map((p) => `(${p.check.sql})`).join(' AND ') : '1';
  const where = Array.from({ length: ranges.length / 2 }, () => 'c.rowid BETWEEN ? AND ?').join(' OR ');
  const sql = `SELECT count(*), sum(coalesce(${jointSql}, 0))${sums.length ? ', ' + sums.join(', ') : ''} FROM companies c WHERE ${where}`;
  const params = [...joint.flatMap((p) => p.check.params), ...preds.flatMap((p) => p.check.params), ...ranges];
  const key = `${sql}\u0000${JSON.stringify(params)}`;
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  const hit = perDb.get(key);
  const now = Date.now();
  if (hit && now - hit.at < TTL_MS) return hit.shares;
  const row = prepared(db, sql).raw(true).get(...params) as number[];
  const size = Math.max(1, row[0]);
  // Few rows seen say little: the joint share (which decides whether to walk) is taken at the
  // low end of what the sample allows, and nothing seen is not "never" but a quarter of a row.
  const share = (n: number | null) => Math.max(n ?? 0, 0.25) / size;
  const low = (n: number | null) => Math.max((n ?? 0) - 2 * Math.sqrt(n ?? 0), 0.25) / size;
  const shares = { size, joint: low(row[1]), each: preds.map((_, i) => share(row[2 + i])), counts: preds.map((_, i) => row[2 + i] ?? 0), jointCount: row[1] ?? 0 };
  if (perDb.size >= 2000) perDb.delete(perDb.keys().next().value as string);
  perDb.set(key, { shares, at: now });
  return shares;
}

