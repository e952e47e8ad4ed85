// Fits columns into the terminal width: natural widths from the first rows, then the widest
// columns shrink (the values are cut with an ellipsis), then the least important are dropped,
// and the room that freed goes back to the columns that were cut. Later pages widen what they
// need to (widenForPage).
import type { Row, TableColumn } from './table-columns.js';

export const COLUMN_GAP = 2;
const MAX_NATURAL = 48;

export interface FittedColumn {
  column: TableColumn;
  width: number;
}

export function fitColumns(columns: readonly TableColumn[], sample: readonly Row[], totalWidth: number): FittedColumn[] {
  let fitted: FittedColumn[] = columns.map((column) => ({
    column,
    width: Math.min(MAX_NATURAL, Math.max(column.header.length, ...sample.map((r) => [...column.value(r)].length))),
  }));
  const natural = new Map(fitted.map((f) => [f.column, f.width]));
  const used = () => fitted.reduce((s, f) => s + f.width, 0) + COLUMN_GAP * Math.max(0, fitted.length - 1);

  // 1. Shrink the widest column a step at a time, while any is above its minimum.
  while (used() > totalWidth) {
    const shrinkable = fitted.filter((f) => f.column.shrink !== false && f.width > Math.max(f.column.min, f.column.header.length));
    if (shrinkable.length === 0) break;
    const widest = shrinkable.reduce((a, b) => (b.width > a.width ? b : a));
    widest.width -= 1;
  }
  // 2. Drop the least important columns.
  while (used() > totalWidth) {
    const droppable = fitted.filter((f) => f.column.keep !== Infinity);
    if (droppable.length === 0) break;
    const least = droppable.reduce((a, b) => (b.column.keep < a.column.keep ? b : a));
    fitted = fitted.filter((f) => f !== least);
  }
  // 3. Still too wide (a very narrow terminal): cut the widest kept text columns down to 3.
  while (used() > totalWidth) {
    const candidates = fitted.filter((f) => f.column.shrink !== false);
    if (candidates.length === 0) break;
    const widest = candidates.reduce((a, b) => (b.width > a.width ? b : a));
    if (widest.width <= 3) break;
    widest.width -= 1;
  }
  // 4. What dropping freed goes back to the columns cut most, up to their natural width.
  for (let spare = totalWidth - used(); spare > 0; spare--) {
    const cut = fitted.filter((f) => f.width < natural.get(f.column)!);
    if (cut.length === 0) break;
    const most = cut.reduce((a, b) => (natural.get(b.column)! - b.width > natural.get(a.column)! - a.width ? b : a));
    most.width += 1;
  }
  return fitted;
}

/**
 * A later page of a streamed table (`--all`): a value wider than its column, which the first
 * page did not show (a revenue of 141 904 000 after rows of thousands), widens the column into
 * the room the line has left; a number or identifier that still does not fit takes the room
 * from the text columns (cut further, down to their minimum), so that it is never cut itself.
 */
export function widenForPage(fitted: readonly FittedColumn[], rows: readonly Row[], totalWidth: number): FittedColumn[] {
  const next = fitted.map((f) => ({ ...f }));
  const used = () => next.reduce((s, f) => s + f.width, 0) + COLUMN_GAP * Math.max(0, next.length - 1);
  const whole = (f: FittedColumn) => f.column.shrink === false;
  for (const f of [...next.filter(whole), ...next.filter((c) => !whole(c))]) {
    const need = Math.min(MAX_NATURAL, Math.max(0, ...rows.map((r) => [...f.column.value(r)].length)));
    let grow = need - f.width;
    if (grow <= 0) continue;
    const room = Math.min(grow, Math.max(0, totalWidth - used()));
    f.width += room;
    grow -= room;
    while (grow > 0 && whole(f)) {
      const donors = next.filter((d) => !whole(d) && d.width > Math.max(d.column.min, d.column.header.length));
      if (donors.length === 0) break;
      donors.reduce((a, b) => (b.width > a.width ? b : a)).width -= 1;
      f.width += 1;
      grow -= 1;
    }
  }
  return next;
}
