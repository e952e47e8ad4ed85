// The retention sweeper: keeps the database the size of its live data. It runs when the server
// starts and then every few minutes, in every `serve` process (the deletes are idempotent, so
// two sweepers over one database only share the work).
import type { ServerContext } from '../app/context.js';
import type { RunningWorker } from '../app/worker.js';
import type { RetentionCutoffs, SweepResult } from '../store/retention.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** How long each kind of finished record is kept (documented in docs/decisions.md, "Retention"). */
export interface RetentionPolicy {
  /** Done and failed jobs: a day, so a job's dedupe key still stops a repeat fan-out for a day. */
  finishedJobsMs: number;
  /** Delivery attempts: the delivery log's window (GET /webhooks/{id}/deliveries). */
  deliveryLogMs: number;
  /** Export records after their links expire (410 until then, 404 after). */
  expiredExportsMs: number;
  /** Idempotency keys: their 24 h. */
  idempotencyKeysMs: number;
  /** Outbox events after the fan-out has passed them. */
  eventsMs: number;
  /** How often to sweep. */
  everyMs: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = {
  finishedJobsMs: DAY,
  deliveryLogMs: 30 * DAY,
  expiredExportsMs: 7 * DAY,
  idempotencyKeysMs: DAY,
  eventsMs: 7 * DAY,
  everyMs: 10 * 60_000,
};

const BATCH = 500;

export function cutoffs(policy: RetentionPolicy, now: Date): RetentionCutoffs {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  return {
    finishedJobsBefore: ago(policy.finishedJobsMs),
    deliveriesBefore: ago(policy.deliveryLogMs),
    exportsBefore: ago(policy.expiredExportsMs),
    idempotencyKeysBefore: ago(policy.idempotencyKeysMs),
    eventsBefore: ago(policy.eventsMs),
  };
}

/** One sweep: the rows, then the files of the deleted exports (normally gone already: store.exportFiles). */
export async function sweepOnce(ctx: ServerContext, policy: RetentionPolicy, now = new Date()): Promise<SweepResult> {
  const result = await ctx.store.retention.sweep(cutoffs(policy, now), BATCH);
  for (const id of result.exports) await ctx.store.exportFiles.clear(id);
  return result;
}

export function startRetentionSweeper(ctx: ServerContext): RunningWorker {
  const policy = { ...DEFAULT_RETENTION, ...ctx.options.retention };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    running = sweepOnce(ctx, policy)
      .catch((err) => ctx.problems.warn('retention sweeper: a sweep failed (retried)', err))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, policy.everyMs);
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
