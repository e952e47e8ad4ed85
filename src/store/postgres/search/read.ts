// Reading a stretch of a page: the rows of one ordered query with their sort value, whole
// (a page is small, so the rows come with the query that finds them: one round trip).
import type { CompanyRow } from '../company-row.js';
import { readColumns } from '../company-row.js';
import type { Queryable } from '../database.js';
import { and, rows, type Sql } from './sql.js';

export interface Hit {
  r: number;
  /** The sort value a cursor carries. */
  v: string | number | null;
  row: CompanyRow;
}

export interface Stretch {
  where: Sql[];
  /** The sort value (a column or an expression over `c`). */
  value: Sql;
  orderBy: string;
  limit: number;
  /** What `c` is read from, when not the table itself (it must still name the rows `c`). */
  from?: Sql;
}

function stretchSql(s: Stretch, expand: boolean): Sql {
  const where = and(s.where);
  return {
    sql: `SELECT ${readColumns(expand)}, ${s.value.sql} AS v FROM ${s.from?.sql ?? 'companies c'} WHERE ${where.sql} ORDER BY ${s.orderBy} LIMIT ?`,
    params: [...s.value.params, ...(s.from?.params ?? []), ...where.params, s.limit],
  };
}

export async function readStretch(db: Queryable, s: Stretch, expand: boolean): Promise<Hit[]> {
  if (s.limit <= 0) return [];
  const found = await rows<CompanyRow & { v: string | number | null }>(db, stretchSql(s, expand));
  return found.map((row) => ({ r: row.rowid, v: row.v, row }));
}

/**
 * Stretches read one after the other until `limit` rows, in one statement: UNION ALL runs its
 * parts in the order written (an Append, not parallel: connections have no workers) and the
 * outer LIMIT stops it, so a later part runs only when the earlier ones fell short.
 */
export async function readStretches(db: Queryable, stretches: readonly Stretch[], limit: number, expand: boolean): Promise<Hit[]> {
  if (limit <= 0) return [];
  if (stretches.length === 1) return readStretch(db, { ...stretches[0], limit }, expand);
  // The sort value as text of byte order in every part (tiers' '2' literals and '1' || name alike).
  const parts = stretches.map((s) => stretchSql({ ...s, value: { sql: `(${s.value.sql})::text COLLATE "C"`, params: s.value.params }, limit }, expand));
  const found = await rows<CompanyRow & { v: string | number | null }>(db, {
    sql: `SELECT * FROM (${parts.map((p) => `(${p.sql})`).join(' UNION ALL ')}) u LIMIT ?`,
    params: [...parts.flatMap((p) => p.params), limit],
  });
  return found.map((row) => ({ r: row.rowid, v: row.v, row }));
}
