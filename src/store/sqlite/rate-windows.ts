// Per-key rate windows in the database file, shared by every process on it (src/app/rate-limit.ts
// takes tokens in blocks, so this runs once per block, not once per request).
import type { RateWindows } from '../store.js';
import type { Db } from './database.js';
import { statementCache } from './statements.js';
import { writeTransaction } from './write-transaction.js';

export class SqliteRateWindows implements RateWindows {
  private readonly sql: ReturnType<typeof statementCache>;
  private lastPrune = 0;

  constructor(private readonly db: Db) {
    this.sql = statementCache(db);
  }

  async take(key: string, windowStart: number, want: number, max: number): Promise<{ granted: number; used: number }> {
    return writeTransaction(this.db, () => {
      this.sql('INSERT INTO rate_windows (key, window_start, used) VALUES (?, ?, 0) ON CONFLICT DO NOTHING').run(key, windowStart);
      const before = this.sql('SELECT used FROM rate_windows WHERE key = ? AND window_start = ?').pluck().get(key, windowStart) as number;
      const granted = Math.max(0, Math.min(want, max - before));
      if (granted > 0) this.sql('UPDATE rate_windows SET used = used + ? WHERE key = ? AND window_start = ?').run(granted, key, windowStart);
      // Old windows are dropped now and then (a day back: no window is that long).
      if (windowStart - this.lastPrune > 600_000) {
        this.lastPrune = windowStart;
        this.sql('DELETE FROM rate_windows WHERE window_start < ?').run(windowStart - 86_400_000);
      }
      return { granted, used: before + granted };
    });
  }

  async giveBack(key: string, windowStart: number, count: number): Promise<void> {
    if (count <= 0) return;
    this.sql('UPDATE rate_windows SET used = max(0, used - ?) WHERE key = ? AND window_start = ?').run(count, key, windowStart);
  }
}
