// Name order over several statuses (or all) without an index of its own: the walks of each
// status in companies_status_name (status, name_sort, rowid, …), merged. SQLite merges a
// UNION ALL whose arms each come in the ORDER BY's order (MERGE (UNION ALL) in the plan),
// reading each arm only as far as the merge needs. Statuses are few (six), so an entry costs
// about 1.4 times one of a single (name_sort, rowid) index, and the filters the index carries
// are tested on the entries (covered.ts), which that index could not: a whole B-tree less to
// build (about a second of seeding).
import type { Db } from '../database.js';
import type { Sql } from './predicates.js';
import { rawAll } from './statements.js';

export const STATUS_NAME_INDEX = 'companies_status_name';

/** Every status in the index, each found by one seek past the last (the column is free text to SQLite). */
export function statusesPresent(db: Db): string[] {
  const sql =
    `WITH RECURSIVE s(v) AS (SELECT (SELECT min(status) FROM companies INDEXED BY ${STATUS_NAME_INDEX}) ` +
    `UNION ALL SELECT (SELECT min(status) FROM companies INDEXED BY ${STATUS_NAME_INDEX} WHERE status > s.v) FROM s WHERE s.v IS NOT NULL) ` +
    'SELECT v FROM s WHERE v IS NOT NULL';
  return rawAll(db, sql, []).map((r) => r[0] as string);
}

/**
 * `SELECT c.rowid AS r, <key> AS k` from each status's entries under `where`, merged in `order`
 * (over r and k: `k, r`, `k DESC, r DESC`, or relevance's `k DESC, r`).
 */
export function mergedByStatus(asked: readonly string[], key: string, where: readonly Sql[], order: string): Sql {
  // A status named twice would list its companies twice.
  const statuses = [...new Set(asked)];
  if (statuses.length === 0) return { sql: `SELECT NULL AS r, NULL AS k WHERE 0`, params: [] };
  const rest = where.map((w) => ` AND (${w.sql})`).join('');
  const arm = `SELECT c.rowid AS r, ${key} AS k FROM companies c INDEXED BY ${STATUS_NAME_INDEX} WHERE c.status = ?${rest}`;
  return {
    sql: `${statuses.map(() => arm).join(' UNION ALL ')} ORDER BY ${order}`,
    params: statuses.flatMap((s) => [s, ...where.flatMap((w) => w.params)]),
  };
}
