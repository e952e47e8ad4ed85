// The delivery worker: claims `webhook.deliver` jobs with a lease, checks the destination
// again, POSTs the stored body signed with the webhook's current secrets, records the
// attempt, and retries on the schedule with the same event id and bytes (spec §6.2–6.5).
import type { LookupFunction } from 'node:net';
import type { Dispatcher } from 'undici';
import { newId } from '../core/ids.js';
import { LIMITS } from '../core/values.js';
import type { Job, JobSettlement, Store } from '../store/store.js';
import type { StoredDelivery, StoredWebhook } from '../store/webhooks.js';
import { refreshHealth, signingSecrets } from './health.js';
import { createSafeDispatcher } from './safe-dispatcher.js';
import { sendDelivery, type SendResult } from './sender.js';
import { signPayload } from './signature.js';
import { webhookSignals } from './signals.js';
import { staticUrlCheck } from './url-policy.js';

export const DELIVER_JOB = 'webhook.deliver';

const FLUSH_BATCH = 64;
const FLUSH_DELAY_MS = 5;

/** What a delivery job carries: the event's exact bytes, serialised once when it was fanned out. */
export interface DeliverPayload {
  webhook_id: string;
  event_id: string;
  event_type: string;
  body: string;
}

export function deliveryJobKey(webhookId: string, eventId: string): string {
  return `${webhookId}:${eventId}`;
}

export async function enqueueDelivery(store: Store, p: DeliverPayload): Promise<string> {
  return store.jobs.enqueue(DELIVER_JOB, { ...p }, { key: deliveryJobKey(p.webhook_id, p.event_id) });
}

export interface DeliveryWorkerOptions {
  allowInsecure: boolean;
  lookup?: LookupFunction;
  retryScheduleSeconds?: readonly number[];
  disableAfterSeconds?: number;
  failingAfter?: number;
  timeoutMs?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** Deliveries in flight at once to any one webhook, so a slow endpoint cannot take every slot. */
  perWebhookConcurrency?: number;
  /** How often to look for due work when nothing wakes the worker. */
  idlePollMs?: number;
  /** On stop, how long attempts in flight get to finish before they are cut and their jobs handed back. */
  stopGraceMs?: number;
  now?: () => Date;
}

/** One finished attempt, waiting to be written with others in one transaction. */
interface Settled {
  delivery: StoredDelivery | null;
  ok: boolean;
  /** null when the job was handed back instead. */
  job: JobSettlement | null;
}

export class DeliveryWorker {
  private readonly schedule: readonly number[];
  private readonly disableAfter: number;
  private readonly failingAfter: number;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly perWebhook: number;
  /** Attempts in flight per webhook id. */
  private readonly busy = new Map<string, number>();
  private readonly idlePollMs: number;
  private readonly leaseMs: number;
  private readonly now: () => Date;
  private readonly dispatcher: Dispatcher;
  private readonly inFlight = new Set<Promise<void>>();
  private pending: Settled[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private stopping = false;
  /** Cuts the attempts still in flight when the stop's grace has run out. */
  private readonly cutAttempts = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly opts: DeliveryWorkerOptions,
  ) {
    this.schedule = opts.retryScheduleSeconds ?? LIMITS.webhookRetryScheduleSeconds;
    this.disableAfter = opts.disableAfterSeconds ?? LIMITS.webhookDisableAfterSeconds;
    this.failingAfter = opts.failingAfter ?? LIMITS.webhookFailingAfter;
    this.timeoutMs = opts.timeoutMs ?? LIMITS.webhookTimeoutMs;
    this.concurrency = opts.concurrency ?? 64;
    this.perWebhook = Math.min(this.concurrency, opts.perWebhookConcurrency ?? 8);
    this.idlePollMs = opts.idlePollMs ?? 100;
    // Long enough for the slowest attempt and its write; a worker that dies leaves the job due again after it.
    this.leaseMs = this.timeoutMs * 3 + 5000;
    this.now = opts.now ?? (() => new Date());
    this.dispatcher = createSafeDispatcher({
      allowInsecure: opts.allowInsecure,
      lookup: opts.lookup,
      connectTimeoutMs: this.timeoutMs,
    });
  }

  start(): this {
    this.loop ??= this.run();
    return this;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    webhookSignals(this.store).delivery.wake();
    const cut = setTimeout(() => this.cutAttempts.abort(), this.opts.stopGraceMs ?? 5000);
    await this.loop;
    clearTimeout(cut);
    await this.flush();
    await this.dispatcher.close().catch(() => undefined);
  }

  private async run(): Promise<void> {
    const wakeup = webhookSignals(this.store).delivery;
    while (!this.stopping) {
      const free = this.concurrency - this.inFlight.size;
      // Claim in batches (one transaction each): wait for a quarter of the slots to free up,
      // unless nothing at all is in flight.
      if (free >= Math.max(1, this.concurrency >> 2) || (free > 0 && this.inFlight.size === 0)) {
        try {
          // Webhooks with their share in flight are skipped in the claim itself; a batch that
          // still brings more of one webhook than its share hands the rest back at once.
          const full = [...this.busy].filter(([, n]) => n >= this.perWebhook).map(([id]) => deliveryJobKey(id, ''));
          const jobs = await this.store.jobs.claimMany([DELIVER_JOB], this.leaseMs, free, { skipKeyPrefixes: full });
          const handBack: string[] = [];
          for (const job of jobs) {
            const webhookId = (job.payload as unknown as DeliverPayload).webhook_id;
            const running = this.busy.get(webhookId) ?? 0;
            if (running >= this.perWebhook) {
              handBack.push(job.id);
              continue;
            }
            this.busy.set(webhookId, running + 1);
            const p: Promise<void> = this.process(job)
              .catch(() => undefined)
              .finally(() => {
                this.inFlight.delete(p);
                const left = (this.busy.get(webhookId) ?? 1) - 1;
                if (left > 0) this.busy.set(webhookId, left);
                else this.busy.delete(webhookId);
                wakeup.wake();
              });
            this.inFlight.add(p);
          }
          await this.store.jobs.release(handBack);
          if (jobs.length === free && handBack.length === 0) continue;
        } catch {
          // The store is busy or closing: try again on the next round.
        }
      }
      if (!this.stopping) await wakeup.wait(this.idlePollMs);
    }
    await Promise.all(this.inFlight);
  }

  /** One attempt of one job; its outcome is written with the next batch. Public for tests and the bench. */
  async process(job: Job): Promise<void> {
    this.settle(await this.attemptJob(job));
  }

  private async attemptJob(job: Job): Promise<Settled> {
    const p = job.payload as unknown as DeliverPayload;
    const found = await this.store.webhooks.getById(p.webhook_id);
    // Deleted, or disabled (now or by the failing period running out): it receives nothing.
    const webhook = found && (await refreshHealth(this.store, found, this.now(), this.disableAfter));
    if (!webhook || webhook.status === 'disabled') return { delivery: null, ok: true, job: { jobId: job.id, outcome: 'complete' } };
    const result = await this.attempt(webhook, p);
    // Cut short by a stop: not the receiver's failure. The job goes back, due at once, uncounted.
    if (this.cutAttempts.signal.aborted && !result.ok) {
      await this.store.jobs.release([job.id]);
      return { delivery: null, ok: true, job: null };
    }
    const attempt = job.attempts + 1;
    const at = this.now();
    const delivery: StoredDelivery = {
      id: newId('dlv'),
      webhook_id: webhook.id,
      event_id: p.event_id,
      event_type: p.event_type,
      attempt,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      error: result.error,
      created_at: at.toISOString(),
    };
    const error = result.error ?? 'failed';
    let outcome: JobSettlement;
    if (result.ok) outcome = { jobId: job.id, outcome: 'complete' };
    else if (attempt <= this.schedule.length) {
      outcome = { jobId: job.id, outcome: 'retry', runAt: new Date(at.getTime() + this.schedule[attempt - 1] * 1000), error };
    } else outcome = { jobId: job.id, outcome: 'fail', error };
    return { delivery, ok: result.ok, job: outcome };
  }

  /** Queues an outcome; a batch is written when it is full or a few milliseconds old. */
  private settle(s: Settled): void {
    this.pending.push(s);
    if (this.pending.length >= FLUSH_BATCH) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }

  /** Writes the attempts, then settles their jobs: a crash in between redelivers (at least once). */
  flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return this.flushing;
    this.flushing = this.flushing.then(async () => {
      try {
        const attempts = batch.flatMap((s) => (s.delivery ? [{ delivery: s.delivery, ok: s.ok }] : []));
        await this.store.webhooks.recordAttempts(attempts, { failingAfter: this.failingAfter });
        await this.store.jobs.settle(batch.flatMap((s) => (s.job ? [s.job] : [])));
      } catch {
        // Unsettled jobs keep their lease and run again when it lapses.
      }
    });
    return this.flushing;
  }

  private async attempt(webhook: StoredWebhook, p: DeliverPayload): Promise<SendResult> {
    // The static rules again (the URL may predate a rule); the dispatcher checks the addresses.
    const checked = staticUrlCheck(webhook.url, { allowInsecure: this.opts.allowInsecure });
    if (!checked.ok) return { ok: false, statusCode: null, durationMs: 0, error: `refused destination: ${checked.reason}` };
    const now = this.now();
    const signature = signPayload(p.body, signingSecrets(webhook, now), Math.floor(now.getTime() / 1000));
    return sendDelivery(
      { url: webhook.url, body: p.body, eventId: p.event_id, eventType: p.event_type, signature },
      { dispatcher: this.dispatcher, timeoutMs: this.timeoutMs, signal: this.cutAttempts.signal },
    );
  }
}
