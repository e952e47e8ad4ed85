// What `bolag admin` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';
import type { Plan, Scope } from '../../../core/values.js';

export interface AdminKeysCreateOptions {
  factory: Factory;
  scopes: Scope[];
  plan: Plan;
  /** --plan was typed (not its default): an existing account on another plan is then an error. */
  planGiven?: boolean;
  account: string;
}
