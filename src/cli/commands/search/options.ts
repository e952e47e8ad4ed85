// What `bolag search` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';
import type { OutputFormat } from '../../output/formatter.js';

export interface SearchOptions {
  factory: Factory;
  /** The API parameters as typed (snake_case), sent as the query string. */
  params: Record<string, string | boolean>;
  /** The same parameters validated and normalised by the core schema. */
  parsed: Record<string, unknown>;
  format: OutputFormat;
  /** Follow every page. */
  all: boolean;
  /** Stop after this many rows (follows pages). */
  max?: number;
  /** Print only the number of matches. */
  count: boolean;
}
