// The planner's thresholds in one place. Sized for the 1.2-million register; tests shrink them
// so that a register of a few thousand rows takes every path (walks, give-ups, slices).
export const TUNING = {
  /** Drivers are counted up to this many rows. */
  estimateCap: 20_000,
  /** A driver this small is collected at once: cheaper than weighing anything else. */
  smallDriver: 1500,
  /** Up to this many driver rows a count runs as one statement; beyond, in timed slices. */
  countInOneStatement: 40_000,
  /** Slices of the rowid range for a long count (a power of two). */
  countSlices: 256,
  /** Scales every walk's budget (tests shrink it to make walks give up). */
  walkBudgetScale: 1,
};

/** For tests: sets thresholds and returns a function that restores them. */
export function tune(values: Partial<typeof TUNING>): () => void {
  const saved = { ...TUNING };
  Object.assign(TUNING, values);
  return () => Object.assign(TUNING, saved);
}
