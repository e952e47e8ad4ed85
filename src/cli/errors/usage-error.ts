// A bad flag, argument or value, found before any request is sent (exit 2).
import { CliError } from './cli-error.js';

export class UsageError extends CliError {
  /** The flag or argument at fault, as the user typed it (`--limit`, `[q]`). */
  readonly flag?: string;

  constructor(message: string, opts: { flag?: string; hint?: string } = {}) {
    super(message, { hint: opts.hint });
    this.name = 'UsageError';
    this.flag = opts.flag;
  }
}
