// Counts kept in memory while rows are written, then added to `company_counts` in one go:
// the bulk loader tallies every row it loads; an import tallies +1 for a row's new values and
// -1 for the values it replaced.
import type { CompanyRow } from '../company-row.js';
import type { Db } from '../database.js';
import { countKeys } from './count-keys.js';

export class CountTally {
  private readonly counts = new Map<string, number>();

  add(row: Parameters<typeof countKeys>[0] & Pick<CompanyRow, 'status'>, delta = 1): void {
    for (const [dim, value] of countKeys(row)) {
      const key = `${dim}\u0000${value}\u0000${row.status}`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + delta);
    }
  }

  /** A count made elsewhere (a loader thread), by its `dim\0value\0status` key. */
  addKey(key: string, n: number): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }

  /** Adds the tally to the table (inside the caller's transaction) and empties it. */
  flush(db: Db): void {
    const upsert = db.prepare('INSERT INTO company_counts (dim, value, status, n) VALUES (?, ?, ?, ?) ON CONFLICT (dim, value, status) DO UPDATE SET n = n + excluded.n');
    for (const [key, n] of this.counts) {
      if (n === 0) continue;
      const [dim, value, status] = key.split('\u0000');
      upsert.run(dim, value, status, n);
    }
    this.counts.clear();
  }
}
