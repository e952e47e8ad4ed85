// Per-key rate windows shared by every replica. A process takes a block of tokens with one
// atomic UPDATE … RETURNING and hands them out locally (src/app/rate-limit.ts), so the
// database sees one write per block, not one per request.
import type { RateWindows } from '../store.js';
import type { PgDb } from './database.js';

export class PgRateWindows implements RateWindows {
  private lastPrune = 0;

  constructor(private readonly db: PgDb) {}

  async take(key: string, windowStart: number, want: number, max: number): Promise<{ granted: number; used: number }> {
    await this.prune(windowStart);
    await this.db.query('INSERT INTO rate_windows (key, window_start, used) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING', [key, windowStart]);
    // The row lock queues concurrent takers: each reads the count the previous one left.
    const r = await this.db.query<{ granted: number; used: number }>(
      `UPDATE rate_windows r SET used = LEAST($4, r.used + $3)
       FROM (SELECT used FROM rate_windows WHERE key = $1 AND window_start = $2 FOR UPDATE) old
       WHERE r.key = $1 AND r.window_start = $2
       RETURNING r.used - old.used AS granted, r.used AS used`,
      [key, windowStart, want, max],
    );
    const row = r.rows[0];
    return { granted: Math.max(0, row?.granted ?? 0), used: row?.used ?? max };
  }

  async giveBack(key: string, windowStart: number, count: number): Promise<void> {
    if (count <= 0) return;
    await this.db.query('UPDATE rate_windows SET used = GREATEST(0, used - $3) WHERE key = $1 AND window_start = $2', [key, windowStart, count]);
  }

  /** Drops windows older than a day, now and then. */
  async prune(now: number): Promise<void> {
    if (now - this.lastPrune < 600_000) return;
    this.lastPrune = now;
    await this.db.query('DELETE FROM rate_windows WHERE window_start < $1', [now - 86_400_000]);
  }
}
