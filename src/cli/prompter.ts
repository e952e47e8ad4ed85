// Interactive questions, on a terminal only. @inquirer/prompts is loaded on first use, so no
// command pays for it unless it asks something.
import { CancelError, UsageError } from './errors/index.js';
import type { IOStreams } from './io.js';

export interface Prompter {
  input(message: string, opts?: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  password(message: string, opts?: { validate?: (value: string) => true | string }): Promise<string>;
  confirm(message: string, opts?: { default?: boolean }): Promise<boolean>;
}

export function createPrompter(io: IOStreams, why = 'this command'): Prompter {
  const ready = async () => {
    if (!io.stdinIsTTY || !io.stderrIsTTY) {
      throw new UsageError(`${why} needs a terminal to ask its questions.`, {
        hint: 'pass the values as flags or environment variables instead',
      });
    }
    return import('@inquirer/prompts');
  };
  const context = { input: io.stdin as NodeJS.ReadableStream, output: io.stderr as NodeJS.WritableStream, clearPromptOnDone: false };
  return {
    async input(message, opts = {}) {
      const { input } = await ready();
      return cancellable(() => input({ message, default: opts.default, validate: opts.validate }, context));
    },
    async password(message, opts = {}) {
      const { password } = await ready();
      return cancellable(() => password({ message, mask: '•', validate: opts.validate }, context));
    },
    async confirm(message, opts = {}) {
      const { confirm } = await ready();
      return cancellable(() => confirm({ message, default: opts.default }, context));
    },
  };
}

/**
 * The answer, or CancelError for Ctrl-C and for the input ending (Ctrl-D, a closed terminal).
 * On Ctrl-D the prompt's line reader closes and the prompt never settles: the process ran out of
 * work and exited 0, and `bolag login` looked to a script as if it had saved a profile. A prompt
 * still open when nothing else is left to run (beforeExit) is one that will never be answered.
 */
async function cancellable<T>(ask: () => Promise<T>): Promise<T> {
  let unanswered: () => void = () => undefined;
  const abandoned = new Promise<never>((_, reject) => {
    unanswered = () => reject(new CancelError('Cancelled (the input ended).'));
    process.once('beforeExit', unanswered);
  });
  try {
    return await Promise.race([ask(), abandoned]);
  } catch (error) {
    if ((error as Error | undefined)?.name === 'ExitPromptError') throw new CancelError('Cancelled.');
    throw error;
  } finally {
    process.removeListener('beforeExit', unanswered);
  }
}
