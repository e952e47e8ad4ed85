// The fan-out worker: reads the outbox after its durable cursor, matches each event to the
// webhooks subscribed to it, enqueues one delivery job per (webhook, event), then advances
// the cursor with compare-and-set. Enqueue-then-advance is at least once; the job's dedupe key
// (webhook, event) makes a repeat harmless, whether after a crash between the two or because
// another process fanned out the same batch at the same time.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LIMITS } from '../core/values.js';
import type { OutboxEvent } from '../store/outbox.js';
import type { Store } from '../store/store.js';
import type { StoredWebhook } from '../store/webhooks.js';
import { compileFilters, isCompanyEvent, type EventSubject } from './filters.js';
import { DELIVER_JOB, deliveryJobKey, type DeliverPayload } from './delivery.js';
import { refreshHealth } from './health.js';
import { webhookSignals } from './signals.js';
import type { ProblemLog } from '../app/problem-log.js';

export const FANOUT_CURSOR = 'webhooks';

export interface FanoutOptions {
  disableAfterSeconds?: number;
  batchSize?: number;
  idlePollMs?: number;
  now?: () => Date;
  /** Where a round that failed is said. */
  problems?: ProblemLog;
}

type Predicate = (subject: EventSubject | null) => boolean;

export class FanoutWorker {
  private readonly disableAfter: number;
  private readonly batchSize: number;
  private readonly idlePollMs: number;
  private readonly now: () => Date;
  /** Compiled filters by webhook id and filter text, so a webhook's filters compile once. */
  private readonly predicates = new Map<string, { text: string; match: Predicate }>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private readonly problems?: ProblemLog;

  constructor(
    private readonly store: Store,
    opts: FanoutOptions = {},
  ) {
    this.problems = opts.problems;
    this.disableAfter = opts.disableAfterSeconds ?? LIMITS.webhookDisableAfterSeconds;
    this.batchSize = opts.batchSize ?? 500;
    this.idlePollMs = opts.idlePollMs ?? 100;
    this.now = opts.now ?? (() => new Date());
  }

  start(): this {
    this.loop ??= this.run();
    return this;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    webhookSignals(this.store).fanout.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    const signals = webhookSignals(this.store);
    while (!this.stopping) {
      let n = 0;
      try {
        n = await this.fanOutOnce();
      } catch (err) {
        // Busy or closing store: the cursor has not moved, so the next round redoes the batch.
        if (!this.stopping) this.problems?.warn('webhook fan-out: a round failed (retried)', err);
      }
      if (n > 0) signals.delivery.wake();
      if (n < this.batchSize && !this.stopping) await signals.fanout.wait(this.idlePollMs);
      // A full batch: more are waiting, but the process's requests and other workers go first.
      // On SQLite every store call completes synchronously, so without this turn a backlog (a
      // weekly import's 90,000 events) was drained in one unbroken run of the event loop: 30 s
      // with no request answered while an import held the write lock between the batches.
      else await nextTurn();
    }
  }

  /** Fans out one batch; returns how many outbox events it consumed. */
  async fanOutOnce(): Promise<number> {
    const { outbox } = this.store;
    const cursor = await outbox.getCursor(FANOUT_CURSOR);
    const events = await outbox.readAfter(cursor, this.batchSize);
    if (events.length === 0) return 0;
    const subscribers = new Map<string, StoredWebhook[]>();
    const jobs: Parameters<Store['jobs']['enqueueMany']>[0][number][] = [];
    for (const e of events) {
      const targets = await this.targets(e, subscribers);
      if (targets.length === 0) continue;
      // Serialised once: every webhook and every retry sends exactly these bytes.
      const body = JSON.stringify(e.event);
      for (const w of targets) {
        const payload: DeliverPayload = { webhook_id: w.id, account_id: w.account_id, event_id: e.event.id, event_type: e.event.type, body };
        jobs.push({ kind: DELIVER_JOB, payload: { ...payload }, key: deliveryJobKey(w.id, e.event.id) });
      }
    }
    await this.store.jobs.enqueueMany(jobs);
    // Compare and set: when another process fanned out this batch first, its jobs (same keys)
    // are the ones that stand, and the cursor it set is not moved back.
    await outbox.advanceCursor(FANOUT_CURSOR, cursor, events[events.length - 1].seq);
    return events.length;
  }

  private async targets(e: OutboxEvent, cache: Map<string, StoredWebhook[]>): Promise<StoredWebhook[]> {
    const type = e.event.type;
    // Account events (exports) go to their own account only; never broadcast one without an owner.
    if (e.account_id === null && !isCompanyEvent(type)) return [];
    const key = `${type}\u0000${e.account_id ?? ''}`;
    let hooks = cache.get(key);
    if (!hooks) {
      const now = this.now();
      hooks = [];
      for (const w of await this.store.webhooks.listSubscribed(type, e.account_id)) {
        const fresh = await refreshHealth(this.store, w, now, this.disableAfter);
        if (fresh.status !== 'disabled') hooks.push(fresh);
      }
      cache.set(key, hooks);
    }
    if (!isCompanyEvent(type)) return hooks;
    return hooks.filter((w) => this.predicate(w)(e.subject as EventSubject | null));
  }

  private predicate(w: StoredWebhook): Predicate {
    const text = JSON.stringify(w.filters);
    const cached = this.predicates.get(w.id);
    if (cached && cached.text === text) return cached.match;
    const match = compileFilters(w.filters);
    this.predicates.set(w.id, { text, match });
    return match;
  }
}
