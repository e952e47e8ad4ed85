// The per-key request limit, held across every process on the database. Windows are fixed and
// aligned to the clock (every process agrees where a window starts); each process takes tokens
// from the window's row in blocks and hands them out locally, so the database sees one write
// per block, not one per request. The database never hands out more than the limit, so the
// limit holds exactly across processes; what a process took but did not use before the window
// ended is lost, at most a block per process, which the block size keeps to about 1 % of the limit.
import { ApiError } from '../core/errors.js';
import type { RateWindows } from '../store/store.js';

interface KeyWindow {
  start: number;
  /** Tokens taken from the database and not yet handed out. */
  tokens: number;
  /** The window's count in the database at our last take. */
  usedAtTake: number;
  /** The database said the window is spent. */
  spent: boolean;
  /** A take in flight: concurrent requests of this key wait for it instead of taking again. */
  taking: Promise<void> | null;
}

export class RateLimiter {
  private readonly windows = new Map<string, KeyWindow>();
  private readonly block: number;

  constructor(
    private readonly store: RateWindows,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly opts: { block?: number; onError?: (err: unknown) => void } = {},
  ) {
    // About 1 % of the limit at a time: one write per hundred requests, little left stranded.
    this.block = opts.block ?? Math.max(1, Math.min(100, Math.floor(max / 100)));
  }

  /** Counts one request; returns the headers to send, or throws 429. */
  async hit(key: string, now = Date.now()): Promise<Record<string, string>> {
    const start = now - (now % this.windowMs);
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      w = { start, tokens: 0, usedAtTake: 0, spent: false, taking: null };
      this.windows.set(key, w);
      if (this.windows.size > 100_000) this.prune(start);
    }
    while (w.tokens === 0 && !w.spent) {
      w.taking ??= this.take(key, w).finally(() => {
        w!.taking = null;
      });
      await w.taking;
    }
    const resetSeconds = Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
    const remaining = (w2: KeyWindow) => Math.max(0, this.max - w2.usedAtTake + w2.tokens);
    if (w.tokens === 0) {
      const headers = { 'RateLimit-Limit': String(this.max), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(resetSeconds) };
      throw new ApiError('rate_limited', `Rate limit of ${this.max} requests per ${this.windowMs / 1000} s exceeded; retry after ${resetSeconds} s.`, undefined, {
        ...headers,
        'Retry-After': String(resetSeconds),
      });
    }
    w.tokens--;
    return { 'RateLimit-Limit': String(this.max), 'RateLimit-Remaining': String(remaining(w)), 'RateLimit-Reset': String(resetSeconds) };
  }

  private async take(key: string, w: KeyWindow): Promise<void> {
    try {
      const { granted, used } = await this.store.take(key, w.start, this.block, this.max);
      w.tokens += granted;
      w.usedAtTake = used;
      if (granted === 0) w.spent = true;
    } catch (err) {
      // The database is unreachable: let this request through rather than fail it for the
      // limit's sake, and say so (a limit that silently stopped counting is a limit no longer).
      this.opts.onError?.(err);
      w.tokens += 1;
    }
  }

  private prune(currentStart: number): void {
    for (const [k, w] of this.windows) if (w.start !== currentStart) this.windows.delete(k);
  }
}
