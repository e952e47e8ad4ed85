// The background workers `serve` runs beside the HTTP face (export runs, webhook fan-out and
// delivery, the retention sweeper). Each reads its work from the durable queue, so any process can pick it up.
import type { WorkerFactory } from '../app/worker.js';
import { createExportWorker } from '../exports/worker.js';
import { startRetentionSweeper } from '../retention/sweeper.js';
import { startWebhookDelivery, startWebhookFanout } from '../webhooks/workers.js';

export type { RunningWorker, WorkerFactory } from '../app/worker.js';

export const WORKERS: WorkerFactory[] = [startWebhookFanout, startWebhookDelivery, createExportWorker, startRetentionSweeper];
