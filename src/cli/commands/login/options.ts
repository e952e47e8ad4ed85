// What `bolag login` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';

export interface LoginOptions {
  factory: Factory;
  /** From the global --base-url / --api-key / --profile, when given (no prompt then). */
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
}
