// The names closest to what was typed, for "did you mean" in an error about an unknown value
// (`--municipality Stokholm`). Compared folded, so that case and diacritics cost nothing.
import { nameKey } from './text.js';

/** Edits (insert, delete, replace, swap two neighbours) between two strings, or more than `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = row;
  }
  return previous[b.length];
}

/**
 * Up to `limit` of `names` that `typed` is a typo of (a quarter of its letters wrong at most) or
 * the start of (three letters or more: "Västra" → Västra Götalands län), the closest first.
 */
export function closestNames(typed: string, names: readonly string[], limit = 3): string[] {
  const key = nameKey(typed);
  if (key.length < 3) return [];
  const max = Math.max(1, Math.floor(key.length / 4));
  const scored: { name: string; score: number }[] = [];
  for (const name of names) {
    const other = nameKey(name);
    const d = distance(key, other, max);
    if (d <= max) scored.push({ name, score: d });
    else if (other.startsWith(key)) scored.push({ name, score: max + 1 });
  }
  return scored
    .sort((x, y) => x.score - y.score || x.name.localeCompare(y.name, 'sv'))
    .slice(0, limit)
    .map((s) => s.name);
}

/** " (did you mean A or B?)", or nothing. */
export function didYouMean(typed: string, names: readonly string[]): string {
  const near = closestNames(typed, names);
  if (near.length === 0) return '';
  const list = near.length === 1 ? near[0] : `${near.slice(0, -1).join(', ')} or ${near[near.length - 1]}`;
  return ` (did you mean ${list}?)`;
}
