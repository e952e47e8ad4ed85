// What `bolag verify` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';

export interface VerifyOptions {
  factory: Factory;
  secrets: string[];
  signature: string;
  bodyFile?: string;
  toleranceSeconds: number;
}
