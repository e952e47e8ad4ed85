// Counts kept in memory while rows are written, then added to `company_counts` in one go:
// the bulk loader tallies every row it loads; an import tallies +1 for a row's new values and
// -1 for the values it replaced.
import type { CompanyRow } from '../company-row.js';
import type { Db } from '../database.js';
import { COUNT_DIMS, visitCountKeys } from './count-keys.js';

/** status → one map a dimension (COUNT_DIMS' order), value → n. */
export type CountSnapshot = Map<string, Map<string, number>[]>;

type CountedRow = Parameters<typeof visitCountKeys>[0] & Pick<CompanyRow, 'status'>;

export class CountTally {
  /** status → one map a dimension (COUNT_DIMS' order), value → n: no key built per row. */
  private readonly byStatus: CountSnapshot = new Map();

  add(row: CountedRow, delta = 1): void {
    const dims = this.dimsOf(row.status);
    visitCountKeys(row, (dim, value) => {
      const m = dims[dim];
      m.set(value, (m.get(value) ?? 0) + delta);
    });
  }

  /** The counts as they are kept, to hand to another thread (Maps survive postMessage). */
  snapshot(): CountSnapshot {
    return this.byStatus;
  }

  /** Adds counts made elsewhere (a loader thread's snapshot). */
  absorb(snapshot: CountSnapshot): void {
    for (const [status, dims] of snapshot) {
      const mine = this.dimsOf(status);
      for (let i = 0; i < dims.length; i++) for (const [value, n] of dims[i]) mine[i].set(value, (mine[i].get(value) ?? 0) + n);
    }
  }

  /** Adds the tally to the table (inside the caller's transaction) and empties it. */
  flush(db: Db): void {
    const upsert = db.prepare('INSERT INTO company_counts (dim, value, status, n) VALUES (?, ?, ?, ?) ON CONFLICT (dim, value, status) DO UPDATE SET n = n + excluded.n');
    for (const [status, dims] of this.byStatus) {
      for (let i = 0; i < dims.length; i++) for (const [value, n] of dims[i]) if (n !== 0) upsert.run(COUNT_DIMS[i], value, status, n);
    }
    this.byStatus.clear();
  }

  private dimsOf(status: string): Map<string, number>[] {
    let dims = this.byStatus.get(status);
    if (!dims) this.byStatus.set(status, (dims = COUNT_DIMS.map(() => new Map<string, number>())));
    return dims;
  }
}
