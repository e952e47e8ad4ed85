// A fixed-window request limit per API key, in memory. Per process: with several `serve`
// processes each enforces its own window (a shared counter is the PostgreSQL follow-up).
import { ApiError } from '../core/errors.js';

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly max: number, private readonly windowMs: number) {}

  /** Counts one request; returns the headers to send, or throws 429. */
  hit(key: string, now = Date.now()): Record<string, string> {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 100_000) this.prune(now);
    }
    w.count++;
    const resetSeconds = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    const headers = {
      'RateLimit-Limit': String(this.max),
      'RateLimit-Remaining': String(Math.max(0, this.max - w.count)),
      'RateLimit-Reset': String(resetSeconds),
    };
    if (w.count > this.max) {
      throw new ApiError('rate_limited', `Rate limit of ${this.max} requests per ${this.windowMs / 1000} s exceeded; retry after ${resetSeconds} s.`, undefined, {
        ...headers,
        'Retry-After': String(resetSeconds),
      });
    }
    return headers;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}
