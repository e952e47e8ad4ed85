// The two webhook workers as the server starts them (src/server/workers.ts).
import type { ServerContext } from '../app/context.js';
import type { RunningWorker } from '../app/worker.js';
import { DeliveryWorker } from './delivery.js';
import { FanoutWorker } from './fanout.js';

export function startWebhookFanout(ctx: ServerContext): RunningWorker {
  return new FanoutWorker(ctx.store, { disableAfterSeconds: ctx.options.webhookDisableAfterSeconds, problems: ctx.problems }).start();
}

export function startWebhookDelivery(ctx: ServerContext): RunningWorker {
  return new DeliveryWorker(ctx.store, {
    allowInsecure: ctx.options.allowInsecureWebhooks === true,
    problems: ctx.problems,
    lookup: ctx.options.webhookLookup,
    retryScheduleSeconds: ctx.options.webhookRetryScheduleSeconds,
    disableAfterSeconds: ctx.options.webhookDisableAfterSeconds,
    stopGraceMs: ctx.options.shutdownGraceMs,
  }).start();
}
