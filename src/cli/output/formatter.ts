// A record formatter turns pages of records into text for stdout: start() once, page() for
// every page as it arrives (so `--all` streams), end() once. Formatters are pure: no I/O.
import type { Row } from './table-columns.js';

export interface RecordFormatter {
  start(): string;
  page(rows: readonly Row[]): string;
  end(): string;
}

export const OUTPUT_FORMATS = ['table', 'csv', 'jsonl', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Table on a terminal, JSONL in a pipe (contract §3). */
export function defaultFormat(stdoutIsTTY: boolean): OutputFormat {
  return stdoutIsTTY ? 'table' : 'jsonl';
}
