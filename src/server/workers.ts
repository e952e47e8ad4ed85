// Background workers that run beside the HTTP server (export runs, webhook fan-out and
// delivery). Each reads its work from the durable queue, so any process can pick it up.
import type { ServerContext } from './context.js';
import { createExportWorker } from '../exports/worker.js';
import { startWebhookDelivery, startWebhookFanout } from '../webhooks/workers.js';

export interface RunningWorker {
  stop(): Promise<void>;
}

export type WorkerFactory = (ctx: ServerContext) => RunningWorker;

/** Filled in by the exports and webhooks resources: src/exports/worker.ts, src/webhooks/dispatcher.ts. */
export const WORKERS: WorkerFactory[] = [];
WORKERS.push(startWebhookFanout, startWebhookDelivery);
WORKERS.push(createExportWorker); // src/exports/worker.ts
