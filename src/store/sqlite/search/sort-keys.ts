// The sort orders of contract §2.5 over their indexes. Every order is the value (nulls last in
// both directions) and then the rowid ascending; ids are the rowid in base 36, zero-padded, so
// rowid order is id order.
import type { Sql } from './predicates.js';
import { mergedByStatus } from './status-merge.js';
import type { Phase, Position } from './walk.js';

export interface SortSpec {
  column: string;
  nullable: boolean;
  index: string;
  /** Few distinct values: a descending walk goes value by value (each in rowid order). */
  values?: readonly number[];
}

export const SORT_SPECS: Record<string, SortSpec> = {
  // No index of its own: one status's entries, or several merged (walk-source.ts).
  name: { column: 'name_sort', nullable: false, index: 'companies_status_name' },
  revenue: { column: 'revenue', nullable: true, index: 'companies_revenue' },
  profit: { column: 'profit', nullable: true, index: 'companies_profit' },
  registration_date: { column: 'registration_date', nullable: false, index: 'companies_registration_date' },
  equity_ratio: { column: 'equity_ratio', nullable: true, index: 'companies_equity_ratio' },
  revenue_growth: { column: 'revenue_growth', nullable: true, index: 'companies_revenue_growth' },
  employees_class: { column: 'employees_rank', nullable: false, index: 'companies_employees', values: Array.from({ length: 16 }, (_, i) => i) },
};

export interface WalkSource {
  index: string;
  /** Conditions on the index's own columns: a status prefix, ranges of the sort column. */
  where: Sql[];
  /** Rows whose value is null can match (no range filter on the sort column). */
  nulls: boolean;
  /** For a value-by-value walk: only these values can match. */
  values?: readonly number[];
  /** An index in rowid order under `where` for the nulls' phase, instead of the table. */
  nullsIndex?: string;
  /** The index is companies_status_name, read as the merge of these statuses' entries (status-merge.ts). */
  statuses?: readonly string[];
}

/**
 * The walk of a sort order as phases: the non-null values in order (or value by value), then
 * the nulls by rowid, starting after `after`.
 */
export function sortPhases(spec: SortSpec, descending: boolean, src: WalkSource, after: Position | null): Phase[] {
  const col = `c.${spec.column}`;
  const base = (extra: Sql[], order: string, from = `INDEXED BY ${src.index}`) => (pos: Position | null, keyset: (p: Position) => Sql): Sql => {
    const parts = [...src.where, ...extra, ...(pos ? [keyset(pos)] : [])];
    if (src.statuses && from === `INDEXED BY ${src.index}`) return mergedByStatus(src.statuses, col, parts, order.replaceAll(col, 'k').replaceAll('c.rowid', 'r'));
    const where = parts.length ? `WHERE ${parts.map((p) => `(${p.sql})`).join(' AND ')}` : '';
    return {
      sql: `SELECT c.rowid AS r, ${col} AS k FROM companies c ${from} ${where} ORDER BY ${order}`,
      params: parts.flatMap((p) => p.params),
    };
  };
  const byRowid = (p: Position): Sql => ({ sql: 'c.rowid > ?', params: [p.r] });
  const phases: Phase[] = [];
  const afterNull = after !== null && after.k === null;

  if (descending && spec.values) {
    const values = [...(src.values ?? spec.values)].sort((a, b) => b - a);
    for (const v of values) {
      if (after && !afterNull && v > Number(after.k)) continue;
      const inner = base([{ sql: `${col} = ?`, params: [v] }], 'c.rowid');
      const start = after && !afterNull && v === Number(after.k) ? { k: v, r: after.r } : null;
      phases.push({ inner: (pos) => inner(pos, byRowid), order: 's.r', start, value: () => v });
    }
  } else if (!afterNull && descending) {
    // The index read backwards as it lies, rowids descending within a value: asked for in rowid
    // order, SQLite sorts each value's entries (USE TEMP B-TREE FOR LAST TERM OF ORDER BY), a
    // third of a walk's cost when rows are tested on an index (sort=-revenue&legal_form=
    // ekonomisk_forening: 7,400 entries, 6.5 -> 4.7 ms). walk.ts puts each value's rows back in
    // rowid order (Phase.group). A cursor's position is in the contract's order (its value's
    // later rowids follow it); a chunk's end is in the index's (its value's lower rowids do).
    const notNull: Sql[] = spec.nullable ? [{ sql: `${col} IS NOT NULL`, params: [] }] : [];
    const fromCursor = (p: Position): Sql => ({ sql: `${col} <= ? AND (${col} < ? OR c.rowid > ?)`, params: [p.k, p.k, p.r] });
    // Read on past a chunk's end or a value's last row taken, never back before the cursor.
    const cursor = after ? { sql: ` AND (${col} <> ? OR c.rowid > ?)`, params: [after.k, after.r] } : { sql: '', params: [] };
    const fromChunk = (p: Position): Sql => ({ sql: `${col} <= ? AND (${col} < ? OR c.rowid < ?)${cursor.sql}`, params: [p.k, p.k, p.r, ...cursor.params] });
    const sameValue = (p: Position): Sql => ({ sql: `${col} = ? AND c.rowid < ?${cursor.sql}`, params: [p.k, p.r, ...cursor.params] });
    const inner = base(notNull, `${col} DESC, c.rowid DESC`);
    phases.push({
      inner: (pos, resumed) => inner(pos, resumed ? fromChunk : fromCursor),
      order: 's.k DESC, s.r DESC',
      group: (pos) => inner(pos, sameValue),
      start: after,
      value: (k) => k as string | number,
    });
  } else if (!afterNull) {
    const notNull: Sql[] = spec.nullable ? [{ sql: `${col} IS NOT NULL`, params: [] }] : [];
    const inner = base(notNull, `${col}, c.rowid`);
    phases.push({
      inner: (pos) => inner(pos, (p) => ({ sql: `(${col}, c.rowid) > (?, ?)`, params: [p.k, p.r] })),
      order: 's.k, s.r',
      start: after,
      value: (k) => k as string | number,
    });
  }
  if (spec.nullable && src.nulls) {
    // By rowid, from the table or from an index that holds the nulls too (companies_employees):
    // a nullable column's own index holds only its values (migrations.ts).
    const inner = base([{ sql: `${col} IS NULL`, params: [] }], 'c.rowid', src.nullsIndex ? `INDEXED BY ${src.nullsIndex}` : 'NOT INDEXED');
    phases.push({ inner: (pos) => inner(pos, byRowid), order: 's.r', start: afterNull ? after : null, value: () => null });
  }
  return phases;
}
