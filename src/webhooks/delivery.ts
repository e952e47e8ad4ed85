// The delivery worker: claims `webhook.deliver` jobs with a lease, checks the destination
// again, POSTs the stored body signed with the webhook's current secrets, records the
// attempt, and retries on the schedule with the same event id and bytes (spec §6.2–6.5).
import type { LookupFunction } from 'node:net';
import type { Dispatcher } from 'undici';
import { newId } from '../core/ids.js';
import { LIMITS } from '../core/values.js';
import type { Job, JobSettlement, Store } from '../store/store.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import type { StoredDelivery, StoredWebhook } from '../store/webhooks.js';
import { refreshHealth, signingSecrets } from './health.js';
import { createSafeDispatcher } from './safe-dispatcher.js';
import { sendDelivery, type SendResult } from './sender.js';
import { signPayload } from './signature.js';
import { webhookSignals } from './signals.js';
import { staticUrlCheck } from './url-policy.js';
import { WebhookRows } from './webhook-rows.js';
import { AttemptWriter, BACKOFF_CAP_MS, BACKOFF_MS, type Settled } from './attempt-writer.js';
import { give, sum, take } from './counts-by-id.js';
import type { ProblemLog } from '../app/problem-log.js';

export const DELIVER_JOB = 'webhook.deliver';

/** What a delivery job carries: the event's exact bytes, serialised once when it was fanned out. */
export interface DeliverPayload {
  webhook_id: string;
  /** The webhook's account, for its share of the slots (absent on jobs queued before 2026-11-28). */
  account_id?: string;
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
  /** Where a claim that failed is said. */
  problems?: ProblemLog;
  lookup?: LookupFunction;
  retryScheduleSeconds?: readonly number[];
  disableAfterSeconds?: number;
  failingAfter?: number;
  timeoutMs?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
  /**
   * Deliveries in flight at once to one webhook (default 4). A receiver answers its requests
   * in turn; with dozens sent at once, the last ones are answered after the sender's timeout,
   * count as failures although the receiver answered 200, and are delivered again a minute later.
   */
  perWebhook?: number;
  /**
   * Deliveries in flight at once for one account, over all its webhooks (default half of
   * `concurrency`, at least `perWebhook`): an account with many slow endpoints holds at most
   * that many slots, and the other accounts' deliveries go on in the rest. Not lent out when the
   * others have nothing due: slots lent to slow endpoints come back only as their attempts time
   * out, and the next account's delivery would wait for that.
   */
  perAccount?: number;
  /** How often to look for due work when nothing wakes the worker. */
  idlePollMs?: number;
  /**
   * On stop, how long attempts in flight get to finish before they are cut and their jobs handed
   * back; default the attempt's own timeout, so that a receiver answering within the time the
   * contract gives it is never cut (and sent the event again) by a restart.
   */
  stopGraceMs?: number;
  now?: () => Date;
}

/**
 * After a claim past the full webhooks' backlogs found nothing, how long before walking them
 * again: from this, doubling while they find nothing, up to the cap.
 */
const PAST_FULL_PAUSE_MS = 250;
const PAST_FULL_PAUSE_CAP_MS = 2000;
/** After a claim that was not full, the next waits for this many finished attempts or this long. */
const CLAIM_AFTER_FINISHED = 2;
const CLAIM_GAP_MS = 5;

export class DeliveryWorker {
  private readonly schedule: readonly number[];
  private readonly disableAfter: number;
  private readonly failingAfter: number;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly idlePollMs: number;
  private readonly leaseMs: number;
  private readonly now: () => Date;
  private readonly dispatcher: Dispatcher;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly perWebhook: number;
  private readonly perAccount: number;
  /** Attempts in flight per webhook id, and per account id. */
  private readonly busyWebhooks = new Map<string, number>();
  private readonly busyAccounts = new Map<string, number>();
  /**
   * Jobs claimed ahead, leased to this worker, waiting for their webhook (account, slot) to have
   * room: a finished attempt starts the next at once instead of after a claim's round trips.
   */
  private ready: Ready[] = [];
  private readonly heldWebhooks = new Map<string, number>();
  private readonly heldAccounts = new Map<string, number>();
  /** How many jobs may wait in `ready` beyond the free slots. */
  private readonly ahead: number;
  private readonly attempts: AttemptWriter;
  private stopping = false;
  /** Cuts the attempts still in flight when the stop's grace has run out. */
  private readonly cutAttempts = new AbortController();
  private loop: Promise<void> | undefined;
  private readonly webhookRows: WebhookRows;
  private readonly unsubscribe: () => void;
  /** No claim past the full webhooks' backlogs before this (they found nothing lately), and the pause after the next that finds nothing. */
  private pastFullNotBefore = 0;
  private pastFullPauseMs = PAST_FULL_PAUSE_MS;
  /** Attempts finished since the last claim, and when the next may run without waiting for them. */
  private finishedSinceClaim = 0;
  private nextClaimAt = 0;

  constructor(
    private readonly store: Store,
    private readonly opts: DeliveryWorkerOptions,
  ) {
    this.schedule = opts.retryScheduleSeconds ?? LIMITS.webhookRetryScheduleSeconds;
    this.disableAfter = opts.disableAfterSeconds ?? LIMITS.webhookDisableAfterSeconds;
    this.failingAfter = opts.failingAfter ?? LIMITS.webhookFailingAfter;
    this.timeoutMs = opts.timeoutMs ?? LIMITS.webhookTimeoutMs;
    this.concurrency = opts.concurrency ?? 64;
    this.perWebhook = opts.perWebhook ?? 4;
    this.perAccount = opts.perAccount ?? Math.max(this.perWebhook, this.concurrency >> 1);
    this.ahead = Math.max(this.perWebhook, this.concurrency >> 2);
    this.idlePollMs = opts.idlePollMs ?? 100;
    // Long enough for the slowest attempt and its write; a worker that dies leaves the job due again after it.
    this.leaseMs = this.timeoutMs * 3 + 5000;
    this.now = opts.now ?? (() => new Date());
    this.attempts = new AttemptWriter(store, { failingAfter: this.failingAfter, leaseMs: this.leaseMs, stopping: () => this.stopping });
    this.webhookRows = new WebhookRows((id) => store.webhooks.getById(id));
    this.unsubscribe = webhookSignals(store).changes.subscribe((id) => this.webhookRows.changed(id));
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
    const cut = setTimeout(() => this.cutAttempts.abort(), this.opts.stopGraceMs ?? this.timeoutMs);
    await this.loop;
    clearTimeout(cut);
    await this.attempts.flush();
    await this.dispatcher.close().catch(() => undefined);
    this.unsubscribe();
  }

  private async run(): Promise<void> {
    const wakeup = webhookSignals(this.store).delivery;
    while (!this.stopping) {
      await this.extendWaiting();
      const free = this.concurrency - this.inFlight.size;
      const room = free + this.ahead - this.ready.length;
      // Claim in batches (one transaction each): wait for a quarter of the slots to free up,
      // unless nothing at all is in flight; a webhook whose share is in flight keeps some of its
      // next jobs claimed ahead (`ready`), so it does not wait for the claim meanwhile.
      if (room > 0 && (free >= Math.max(1, this.concurrency >> 2) || (free > 0 && this.inFlight.size === 0))) {
        // After a claim that found less than it had room for, the next waits for a few attempts
        // to finish (or a few milliseconds): with one busy webhook, every finished attempt
        // claimed the one job that took its place, a claim for each delivery.
        const gate = this.finishedSinceClaim >= CLAIM_AFTER_FINISHED ? 0 : this.nextClaimAt - Date.now();
        if (gate > 0) {
          await wakeup.wait(gate);
          continue;
        }
        try {
          this.finishedSinceClaim = 0;
          const claimed = await this.claimAndStart(room);
          // Claim again at once only when the claim was full; else wait for a slot to free.
          if (claimed === room) continue;
          this.nextClaimAt = Date.now() + CLAIM_GAP_MS;
        } catch (err) {
          // The store is busy or closing: try again on the next round.
          if (!this.stopping) this.opts.problems?.warn('webhook delivery: a claim failed (retried)', err);
        }
      }
      if (!this.stopping) await wakeup.wait(this.idlePollMs);
    }
    await Promise.all(this.inFlight);
    // Claimed ahead and never started: back to the queue, due at once, no attempt counted.
    const left = this.ready;
    this.ready = [];
    for (const r of left) this.unhold(r);
    await Promise.all(left.map((r) => this.store.jobs.release(r.job).catch(() => false)));
  }

  /**
   * A job waits in `ready` only while its webhook's attempts in flight finish (each within the
   * send timeout, unless the database is out of reach). One that has waited a third of its lease
   * has the lease extended, keeping its place, so that it does not lapse during the attempt;
   * one whose lease is lost, or cannot be extended now, leaves `ready` (its lease lapses and the
   * job is due again for any worker).
   */
  private async extendWaiting(): Promise<void> {
    const oldest = Date.now() - this.leaseMs / 3;
    const waiting = this.ready.filter((r) => r.leasedAt < oldest);
    if (waiting.length === 0) return;
    const kept = await Promise.all(waiting.map((r) => this.store.jobs.extend(r.job, this.leaseMs).catch(() => false)));
    const now = Date.now();
    const lost = new Set<Ready>();
    waiting.forEach((r, i) => {
      if (kept[i]) r.leasedAt = now;
      else lost.add(r);
    });
    if (lost.size === 0) return;
    for (const r of lost) this.unhold(r);
    this.ready = this.ready.filter((r) => !lost.has(r));
  }

  /**
   * At most a webhook's (and an account's) share in flight: the claim takes no more of one than
   * it has room for, so no job is claimed to be handed back. First from the head of the queue;
   * when that fills fewer slots than are free, past the backlogs of the webhooks with their
   * share taken, so that those do not stand in front of the others' deliveries, as long as that
   * finds some. That walk costs what the backlogs hold (one webhook's week of events: every row,
   * under the write lock on SQLite), so once it finds nothing it pauses (PAST_FULL_PAUSE_MS,
   * doubling while it keeps finding nothing) before walking again.
   */
  private async claimAndStart(limit: number): Promise<number> {
    // In flight or claimed ahead: a webhook's share and as many again, an account's share and a webhook's.
    const caps = () => [
      { field: 'webhook_id', max: this.perWebhook * 2, busy: sum(this.busyWebhooks, this.heldWebhooks) },
      { field: 'account_id', max: this.perAccount + this.perWebhook, busy: sum(this.busyAccounts, this.heldAccounts) },
    ];
    let claimed = this.hold(await this.store.jobs.claimMany([DELIVER_JOB], this.leaseMs, limit, { caps: caps() }));
    while (claimed < limit && !this.stopping && Date.now() >= this.pastFullNotBefore) {
      const more = this.hold(await this.store.jobs.claimMany([DELIVER_JOB], this.leaseMs, limit - claimed, { caps: caps(), pastFull: true }));
      if (more === 0) {
        this.pastFullNotBefore = Date.now() + this.pastFullPauseMs;
        this.pastFullPauseMs = Math.min(this.pastFullPauseMs * 2, PAST_FULL_PAUSE_CAP_MS);
        break;
      }
      this.pastFullPauseMs = PAST_FULL_PAUSE_MS;
      claimed += more;
    }
    return claimed;
  }

  /** Queues claimed jobs in `ready` and starts those with room; how many were claimed. */
  private hold(jobs: readonly Job[]): number {
    const leasedAt = Date.now();
    for (const job of jobs) {
      const r: Ready = {
        job,
        webhookId: String(job.payload.webhook_id),
        accountId: typeof job.payload.account_id === 'string' ? job.payload.account_id : null,
        leasedAt,
      };
      take(this.heldWebhooks, r.webhookId);
      if (r.accountId !== null) take(this.heldAccounts, r.accountId);
      this.ready.push(r);
    }
    this.startReady();
    return jobs.length;
  }

  private unhold(r: Ready): void {
    give(this.heldWebhooks, r.webhookId);
    if (r.accountId !== null) give(this.heldAccounts, r.accountId);
  }

  /** Starts, in the order they were claimed, the ready jobs whose webhook and account have room. */
  private startReady(): void {
    if (this.stopping || this.ready.length === 0) return;
    const waiting: Ready[] = [];
    for (const r of this.ready) {
      const fits =
        this.inFlight.size < this.concurrency &&
        (this.busyWebhooks.get(r.webhookId) ?? 0) < this.perWebhook &&
        (r.accountId === null || (this.busyAccounts.get(r.accountId) ?? 0) < this.perAccount);
      if (fits) {
        this.unhold(r);
        this.startOne(r);
      } else waiting.push(r);
    }
    this.ready = waiting;
  }

  private startOne({ job, webhookId, accountId, leasedAt }: Ready): void {
    take(this.busyWebhooks, webhookId);
    if (accountId !== null) take(this.busyAccounts, accountId);
    const p: Promise<void> = this.process(job, leasedAt)
      .catch(() => undefined)
      .finally(() => {
        this.inFlight.delete(p);
        give(this.busyWebhooks, webhookId);
        if (accountId !== null) give(this.busyAccounts, accountId);
        this.finishedSinceClaim++;
        this.startReady();
        webhookSignals(this.store).delivery.wake();
      });
    this.inFlight.add(p);
  }

  /** One attempt of one job; its outcome is written with the next batch. Public for tests and the bench. */
  async process(job: Job, leasedAt = Date.now()): Promise<void> {
    const settled = await this.attemptWhenReachable(job, leasedAt);
    if (settled) this.attempts.add(settled);
  }

  /**
   * The reads before an attempt need the database; while it is out of reach, wait and read again
   * (the job stays leased to us) rather than drop the job until its lease lapses.
   */
  private async attemptWhenReachable(job: Job, leasedAt: number): Promise<Settled | null> {
    // Counted from the lease, not from the start: a job that waited in `ready` has less left.
    const giveUpAt = leasedAt + this.leaseMs / 2;
    for (let wait = BACKOFF_MS; ; wait = Math.min(wait * 2, BACKOFF_CAP_MS)) {
      try {
        return await this.attemptJob(job, leasedAt);
      } catch (e) {
        if (!isStoreUnavailable(e) || this.stopping || Date.now() + wait > giveUpAt) throw e;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** null: the attempt was cut short by a stop and the job handed back (nothing to record). */
  private async attemptJob(job: Job, leasedAt: number): Promise<Settled | null> {
    const p = job.payload as unknown as DeliverPayload;
    const found = await this.webhookRows.get(p.webhook_id);
    // Deleted, or disabled (now or by the failing period running out): it receives nothing.
    // WebhookRows keeps only rows that receive, so that decision is always made on a fresh read.
    const webhook = found && (await refreshHealth(this.store, found, this.now(), this.disableAfter));
    if (webhook !== found) this.webhookRows.changed(p.webhook_id);
    if (!webhook || webhook.status === 'disabled') return { delivery: null, ok: true, job: { job, outcome: 'complete' }, leasedAt };
    const result = await this.attempt(webhook, p);
    // Cut short by a stop: not the receiver's failure. The job goes back, due at once, uncounted.
    if (this.cutAttempts.signal.aborted && !result.ok) {
      await this.store.jobs.release(job);
      return null;
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
    if (result.ok) outcome = { job, outcome: 'complete' };
    else if (attempt <= this.schedule.length) {
      outcome = { job, outcome: 'retry', runAt: new Date(at.getTime() + this.schedule[attempt - 1] * 1000), error };
    } else outcome = { job, outcome: 'fail', error };
    return { delivery, ok: result.ok, job: outcome, leasedAt };
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

/** A job claimed ahead, waiting for room. */
interface Ready {
  job: Job;
  webhookId: string;
  accountId: string | null;
  /** When the job was claimed, or its lease last extended. */
  leasedAt: number;
}
