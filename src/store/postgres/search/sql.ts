// SQL fragments with their values, written with `?` and numbered ($1, $2, …) only when a
// statement is run, so that fragments compose in any order. No fragment holds a literal `?`.
import type pg from 'pg';
import type { Queryable } from '../database.js';

export interface Sql {
  sql: string;
  params: unknown[];
}

export const TRUE: Sql = { sql: 'true', params: [] };

export function sql(text: string, ...params: unknown[]): Sql {
  return { sql: text, params };
}

/** Every part, each parenthesised; `true` when there is none. */
export function and(parts: readonly Sql[]): Sql {
  if (parts.length === 0) return TRUE;
  return { sql: parts.map((p) => `(${p.sql})`).join(' AND '), params: parts.flatMap((p) => p.params) };
}

export function not(part: Sql): Sql {
  return { sql: `NOT (${part.sql})`, params: part.params };
}

export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** `?` → `$n`. */
export function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

export async function rows<R extends pg.QueryResultRow>(db: Queryable, q: Sql): Promise<R[]> {
  return (await db.query<R>(numbered(q.sql), q.params)).rows;
}
