// What `bolag completion` hands its run function: defined here, beside the run code, so that the
// command file imports it and nothing here imports the command file.
import type { Factory } from '../../factory.js';
import type { Shell } from '../../completion/generate.js';

export interface CompletionOptions {
  factory: Factory;
  shell?: Shell;
  outDir?: string;
}
