// Collecting: start from the rows one driver yields (an index range, full-text matches, a
// spatial box), test each, and sort what passes. Its cost is the driver's row count, the same on
// every page: the cursor's position is one more condition, and only the top of the sort is kept.
import type { Db } from '../database.js';
import type { Driver, Sql } from './predicates.js';
import { rawAll } from './statements.js';
import type { Hit } from './walk.js';

/** The sort value as SQL over `companies c`. */
export interface ValueExpr extends Sql {
  nullable: boolean;
}

export interface After {
  v: string | number | null;
  r: number;
}

/** The FROM and WHERE that make a driver lead: its index, or its rowids looked up one by one. */
export function driverSource(driver: Driver | null): { from: string; where: Sql } {
  if (!driver) return { from: 'companies c NOT INDEXED', where: { sql: '1', params: [] } };
  if (driver.kind === 'index') return { from: `companies c INDEXED BY ${driver.index}`, where: { sql: driver.sql, params: driver.params } };
  return { from: 'companies c NOT INDEXED', where: { sql: `c.rowid IN (${driver.sql})`, params: driver.params } };
}

/** Rows after the position in (value, rowid) order, nulls last in both directions. */
export function keysetCondition(expr: Sql, descending: boolean, after: After): Sql {
  if (after.v === null) return { sql: `(${expr.sql}) IS NULL AND c.rowid > ?`, params: [...expr.params, after.r] };
  const cmp = descending ? '<' : '>';
  return {
    sql: `((${expr.sql}) ${cmp} ? OR ((${expr.sql}) = ? AND c.rowid > ?) OR (${expr.sql}) IS NULL)`,
    params: [...expr.params, after.v, ...expr.params, after.v, after.r, ...expr.params],
  };
}

export function collect(
  db: Db,
  driver: Driver | null,
  checks: Sql,
  value: ValueExpr,
  descending: boolean,
  after: After | null,
  need: number,
): Hit[] {
  const src = driverSource(driver);
  const where: Sql[] = [src.where, checks];
  if (after) where.push(keysetCondition(value, descending, after));
  const order = `${value.nullable ? 'v IS NULL, ' : ''}v ${descending ? 'DESC' : 'ASC'}, c.rowid`;
  const sql = `SELECT c.rowid, ${value.sql} AS v FROM ${src.from} WHERE ${where.map((w) => `(${w.sql})`).join(' AND ')} ORDER BY ${order} LIMIT ?`;
  const rows = rawAll(db, sql, [...value.params, ...where.flatMap((w) => w.params), need]);
  return rows.map(([r, v]) => ({ r: r as number, v: v as string | number | null }));
}
