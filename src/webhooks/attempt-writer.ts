// Writes the delivery worker's finished attempts in batches: each batch settles its jobs and
// records their attempts in one transaction, so a crash before it redelivers (at least once)
// and a delivery is never recorded as delivered twice. While the database is out of reach a
// batch waits and is written again, backing off, as long as its leases hold; after that the
// jobs run again elsewhere.
import type { Store } from '../store/store.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import type { AttemptSettlement } from '../store/webhooks.js';

/** One finished attempt, waiting to be written with others in one transaction. */
export interface Settled extends AttemptSettlement {
  /** When its job was claimed (or its lease last extended): past the lease, writing it is pointless (another worker has the job). */
  leasedAt: number;
}

const FLUSH_BATCH = 64;
const FLUSH_DELAY_MS = 5;
/** The most outcomes one write takes. */
const FLUSH_MAX = 256;
/** Backing off while the database is out of reach: from this, doubling, up to the cap (the worker's reads too). */
export const BACKOFF_MS = 250;
export const BACKOFF_CAP_MS = 4000;

export class AttemptWriter {
  private pending: Settled[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private flushBackoffMs = 0;

  constructor(
    private readonly store: Store,
    private readonly opts: { failingAfter: number; leaseMs: number; stopping: () => boolean },
  ) {}

  /** Queues an outcome; a batch is written when it is full or a few milliseconds old. */
  add(s: Settled): void {
    this.pending.push(s);
    if (this.pending.length === FLUSH_BATCH) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }

  /** Writes what is queued; resolves when every write asked for so far has ended. */
  flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.length === 0) return this.flushing;
    // The batch is taken when its write starts, not when it was asked for: while one write runs,
    // the outcomes that finish meanwhile wait for the next one and go in it together. Taken at
    // the ask, a batch of a few outcomes was chained every few milliseconds behind a write that
    // took longer (PostgreSQL), and the chain, not the receivers, set the pace.
    this.flushing = this.flushing.then(async () => {
      const batch = this.pending.splice(0, FLUSH_MAX);
      if (batch.length === 0) return;
      // More finished than one write takes (after a slow write or an outage): the rest next.
      if (this.pending.length > 0 && !this.flushTimer) this.flushTimer = setTimeout(() => void this.flush(), 0);
      try {
        await this.store.webhooks.recordAttempts(batch, { failingAfter: this.opts.failingAfter });
        this.flushBackoffMs = 0;
      } catch (e) {
        if (!isStoreUnavailable(e) || this.opts.stopping()) return;
        const fresh = batch.filter((s) => Date.now() - s.leasedAt < this.opts.leaseMs);
        this.pending = [...fresh, ...this.pending];
        this.flushBackoffMs = Math.min(Math.max(BACKOFF_MS, this.flushBackoffMs * 2), BACKOFF_CAP_MS);
        if (this.pending.length > 0 && !this.flushTimer) this.flushTimer = setTimeout(() => void this.flush(), this.flushBackoffMs);
      }
    });
    return this.flushing;
  }
}
