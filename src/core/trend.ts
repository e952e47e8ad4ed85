// A company's trend (a public field and a filter) from its revenue growth over a year.
import type { Trend } from './values.js';

/** Growth past ±5 % is a trend; within it, stable. */
export function trendOfGrowth(growth: number): Trend {
  return growth > 0.05 ? 'växande' : growth < -0.05 ? 'minskande' : 'stabil';
}
