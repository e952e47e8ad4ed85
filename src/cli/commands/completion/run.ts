// Builds the full command tree and prints (or writes) the completion scripts.
import { writeFile } from 'node:fs/promises';
import { makeFolder } from '../../../core/make-folder.js';
import { join } from 'node:path';
import type { CompletionOptions } from './options.js';
import { completionScript, SHELLS, SHIPPED_FILES } from '../../completion/generate.js';
import { addCommands, buildRootProgram } from '../../program.js';
import { OutputSink } from '../../output/sink.js';
import type { Factory } from '../../factory.js';
import type { Command } from 'commander';

export async function fullCommandTree(factory: Factory): Promise<Command> {
  const root = buildRootProgram(factory.io, factory.version);
  await addCommands(root, factory, undefined, true);
  return root;
}

export async function completionRun(opts: CompletionOptions): Promise<void> {
  const root = await fullCommandTree(opts.factory);
  if (opts.outDir) {
    makeFolder(opts.outDir);
    for (const shell of SHELLS) await writeFile(join(opts.outDir, SHIPPED_FILES[shell]), completionScript(shell, root));
    opts.factory.notice(`Wrote ${SHELLS.map((s) => SHIPPED_FILES[s]).join(', ')} to ${opts.outDir}`);
    return;
  }
  await new OutputSink(opts.factory.io.stdout).write(completionScript(opts.shell!, root));
}
