// What `bolag export` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';

export type RecordFormat = 'table' | 'json';

export type ExportAction =
  | {
      kind: 'create';
      format: 'csv' | 'jsonl';
      /** The filters as typed (snake_case), sent as the body's filters. */
      filters: Record<string, string | boolean>;
      fields?: string[];
      idempotencyKey?: string;
      wait: boolean;
    }
  | { kind: 'get'; id: string }
  | { kind: 'wait'; id: string }
  | { kind: 'download'; id: string };

export interface ExportOptions {
  factory: Factory;
  action: ExportAction;
  /** Where downloads go (create --wait, download). */
  outDir: string;
  /** How a record is printed (create without --wait, get, wait). */
  recordFormat: RecordFormat;
}
