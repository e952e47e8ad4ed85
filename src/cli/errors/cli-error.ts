// The base of every error a command throws on purpose. `hint` is a short next step shown after
// the message; `requestId` is the server's id when the error came from a response.
export class CliError extends Error {
  /** Writable: a command may add what the user needs to pick up after it (an export's id). */
  hint?: string;
  readonly requestId?: string;

  constructor(message: string, opts: { hint?: string; requestId?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'CliError';
    this.hint = opts.hint;
    this.requestId = opts.requestId;
  }
}
