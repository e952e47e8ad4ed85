// How many companies lie in a `near` box, counted through the spatial index up to a cap and
// kept for a minute (searches repeat their centres). PostgreSQL cannot estimate a box from its
// statistics (it assumes a fixed 0.1 % of the table), so the plan is chosen here: a box with
// few companies is read through the index and sorted; a dense one (a city) is left to the sort
// order's own index, testing the distance of each row read, which costs a page's worth.
import type { Queryable } from '../database.js';
import { rows, type Sql } from './sql.js';

const TTL_MS = 60_000;
const MAX_ENTRIES = 2000;
/** Boxes with at most this many companies are collected from the spatial index. */
export const SMALL_BOX = 5000;

const cache = new WeakMap<Queryable, Map<string, { n: number; at: number }>>();

export async function companiesInBox(db: Queryable, box: Sql, cap = SMALL_BOX + 1): Promise<number> {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  const key = `${cap}:${JSON.stringify(box.params)}`;
  const now = Date.now();
  const hit = perDb.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.n;
  const [{ n }] = await rows<{ n: number }>(db, {
    sql: `SELECT count(*)::int AS n FROM (SELECT 1 FROM companies c WHERE ${box.sql} LIMIT ?) s`,
    params: [...box.params, cap],
  });
  if (perDb.size >= MAX_ENTRIES) perDb.delete(perDb.keys().next().value as string);
  perDb.set(key, { n, at: now });
  return n;
}
