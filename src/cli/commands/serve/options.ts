// What `bolag serve` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';
import type { StoreTarget } from '../../store-target.js';

export interface ServeOptions {
  factory: Factory;
  port: number;
  host: string;
  target: StoreTarget;
  seedCount?: number;
  publicUrl?: string;
  allowInsecureWebhooks: boolean;
  webhookRetrySchedule?: number[];
  webhookDisableAfter?: number;
  exportPartRows?: number;
  rateLimit?: number;
  /** Server processes on one port (node:cluster); 1 serves from this process. */
  processes: number;
}
