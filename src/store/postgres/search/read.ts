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

export async function readStretch(db: Queryable, s: Stretch, expand: boolean): Promise<Hit[]> {
  if (s.limit <= 0) return [];
  const where = and(s.where);
  const found = await rows<CompanyRow & { v: string | number | null }>(db, {
    sql: `SELECT ${readColumns(expand)}, ${s.value.sql} AS v FROM ${s.from?.sql ?? 'companies c'} WHERE ${where.sql} ORDER BY ${s.orderBy} LIMIT ?`,
    params: [...s.value.params, ...(s.from?.params ?? []), ...where.params, s.limit],
  });
  return found.map((row) => ({ r: row.rowid, v: row.v, row }));
}
