// What `bolag company` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';

export interface CompanyOptions {
  factory: Factory;
  id: string;
  format: 'table' | 'json';
  expand: boolean;
}
