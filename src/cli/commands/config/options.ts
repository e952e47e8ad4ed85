// What `bolag config` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';

export interface ConfigOptions {
  factory: Factory;
  action: 'get' | 'set' | 'unset' | 'list' | 'profiles';
  key?: string;
  value?: string;
  showSecrets?: boolean;
}
