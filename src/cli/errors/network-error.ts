// The request did not get an answer: refused, reset, timed out (exit 1).
import { CliError } from './cli-error.js';

export class NetworkError extends CliError {
  readonly method: string;
  readonly url: string;

  constructor(message: string, opts: { method: string; url: string; cause?: unknown }) {
    super(message, { cause: opts.cause, hint: 'check --base-url and that the service is running' });
    this.name = 'NetworkError';
    this.method = opts.method;
    this.url = opts.url;
  }
}
