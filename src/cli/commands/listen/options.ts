// What `bolag listen` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';

export interface ListenOptions {
  factory: Factory;
  port: number;
  host: string;
  secrets: string[];
  toleranceSeconds: number;
  format: 'pretty' | 'jsonl';
  forwardTo?: string;
  exec?: string;
  register?: { url: string; events: string[]; filters: Record<string, string[]> };
}
