// Ctrl-C or a cancelled prompt (exit 130). The message says how to resume, when that is possible.
import { CliError } from './cli-error.js';

export class CancelError extends CliError {
  constructor(message = 'Interrupted.') {
    super(message);
    this.name = 'CancelError';
  }
}
