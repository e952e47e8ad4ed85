// What `bolag db` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';

export interface DbOptions {
  factory: Factory;
}

export interface DbSeedOptions extends DbOptions {
  count?: number;
  seed?: string;
  /** Replace a register that holds companies (without it, such a register is refused). */
  replace?: boolean;
}

export interface DbImportOptions extends DbOptions {
  file: string;
  source?: 'ours' | 'bolagsverket' | 'scb';
  includePersons?: boolean;
  strict?: boolean;
  markAllVanished?: boolean;
  allowOlder?: boolean;
  errorsFile?: string;
}
