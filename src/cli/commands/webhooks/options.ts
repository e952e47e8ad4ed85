// What `bolag webhooks` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';

export type RecordFormat = 'table' | 'json';

export type ListFormat = 'table' | 'json' | 'jsonl';

export type WebhooksAction =
  | { kind: 'create'; url: string; events: string[]; filters: Record<string, string[]> }
  | { kind: 'list' }
  | { kind: 'get'; id: string }
  | { kind: 'update'; id: string; url?: string; events?: string[]; filters?: Record<string, string[]>; enable: boolean }
  | { kind: 'delete'; id: string }
  | { kind: 'rotate-secret'; id: string }
  | { kind: 'test'; id: string }
  | { kind: 'deliveries'; id: string; limit?: number; all: boolean };

export interface WebhooksOptions {
  factory: Factory;
  action: WebhooksAction;
  format: ListFormat;
}
