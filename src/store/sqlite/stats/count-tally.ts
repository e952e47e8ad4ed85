// Counts kept in memory while rows are written, then added to `company_counts` in one go:
// the bulk loader tallies every row it loads; an import tallies +1 for a row's new values and
// -1 for the values it replaced.
import type { CompanyRow } from '../company-row.js';
import type { Db } from '../database.js';
import { COUNT_DIMS, visitCountKeys } from './count-keys.js';

type CountedRow = Parameters<typeof visitCountKeys>[0] & Pick<CompanyRow, 'status'>;

export class CountTally {
  /** status → one map a dimension (COUNT_DIMS' order), value → n: no key built per row. */
  private readonly byStatus = new Map<string, Map<string, number>[]>();

  add(row: CountedRow, delta = 1): void {
    const dims = this.dimsOf(row.status);
    visitCountKeys(row, (dim, value) => {
      const m = dims[dim];
      m.set(value, (m.get(value) ?? 0) + delta);
    });
  }

  /** A count made elsewhere (a loader thread), by its `dim\0value\0status` key. */
  addKey(key: string, n: number): void {
    const [dim, value, status] = key.split('\u0000');
    const i = (COUNT_DIMS as readonly string[]).indexOf(dim);
    if (i < 0) throw new Error(`unknown count dimension ${dim}`);
    const m = this.dimsOf(status)[i];
    m.set(value, (m.get(value) ?? 0) + n);
  }

  /** The counts by `dim\0value\0status` key (to hand to another thread's tally). */
  *entries(): IterableIterator<[string, number]> {
    for (const [status, dims] of this.byStatus) {
      for (let i = 0; i < dims.length; i++) for (const [value, n] of dims[i]) yield [`${COUNT_DIMS[i]}\u0000${value}\u0000${status}`, n];
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
