// Counts kept by id (attempts in flight or claimed ahead, per webhook and per account): an id
// whose count falls to zero leaves the map, so its size is what is busy.

/** Two counts by id, added. */
export function sum(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map(a);
  for (const [id, n] of b) out.set(id, (out.get(id) ?? 0) + n);
  return out;
}

/** One more for `id`. */
export function take(busy: Map<string, number>, id: string): void {
  busy.set(id, (busy.get(id) ?? 0) + 1);
}

/** One fewer for `id`. */
export function give(busy: Map<string, number>, id: string): void {
  const left = (busy.get(id) ?? 1) - 1;
  if (left > 0) busy.set(id, left);
  else busy.delete(id);
}
