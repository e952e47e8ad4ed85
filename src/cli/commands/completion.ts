// `bolag completion bash|zsh|fish`: prints the completion script of a shell (the same scripts
// ship in completions/; `bolag completion --out-dir completions` regenerates them).
import { Argument, Command, Option } from 'commander';
import type { Factory } from '../factory.js';
import { UsageError } from '../errors/index.js';
import type { CompletionOptions } from './completion/options.js';
import { helpNotes } from '../help-layout.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

const INSTALL = helpNotes({
  heading: 'Install (bash: add the line to ~/.bashrc; zsh: then restart zsh; fish):',
  examples: ['source <(bolag completion bash)', 'bolag completion zsh > "${fpath[1]}/_bolag"', 'bolag completion fish > ~/.config/fish/completions/bolag.fish'],
});

export function buildCompletionCommand(f: Factory, runF?: (opts: CompletionOptions) => Promise<void>): Command {
  return new Command('completion')
    .summary('Print the shell completion script')
    .description('Print the completion script for bash, zsh or fish: commands, flags and the values of enum flags.')
    .addArgument(new Argument('[shell]', 'bash, zsh or fish').choices(SHELLS))
    .addOption(new Option('--out-dir <dir>', 'Write all three scripts into a directory (for completions/)').hideHelp())
    .addHelpText('after', INSTALL)
    .action(async (shell: CompletionOptions['shell'], raw: { outDir?: string }) => {
      if (!shell && !raw.outDir) throw new UsageError('Name a shell: bash, zsh or fish.', { flag: '[shell]' });
      const opts: CompletionOptions = { factory: f, shell, outDir: raw.outDir };
      if (runF) return runF(opts);
      const { completionRun } = await import('./completion/run.js');
      return completionRun(opts);
    });
}
