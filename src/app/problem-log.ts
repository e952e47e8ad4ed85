// What goes wrong in the background (a worker's round that failed, a rate limit that could not
// be counted), said on the server's log so that an operator sees it; `bolag serve` logs warnings
// and errors without --verbose. A failure that repeats every poll (the database gone) is said
// once a minute per kind, with how often it happened meanwhile.
export interface LogSink {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const QUIET_MS = 60_000;

export class ProblemLog {
  private readonly last = new Map<string, { at: number; unsaid: number }>();

  constructor(
    private readonly sink: LogSink | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** `kind` names the place (`export worker: claim`); the error is logged with its message and stack. */
  warn(kind: string, err: unknown, fields: object = {}): void {
    this.say('warn', kind, err, fields);
  }

  error(kind: string, err: unknown, fields: object = {}): void {
    this.say('error', kind, err, fields);
  }

  private say(level: 'warn' | 'error', kind: string, err: unknown, fields: object): void {
    if (!this.sink) return;
    const at = this.now();
    const seen = this.last.get(kind);
    if (seen && at - seen.at < QUIET_MS) {
      seen.unsaid++;
      return;
    }
    const again = seen?.unsaid ? { repeated: seen.unsaid } : {};
    this.last.set(kind, { at, unsaid: 0 });
    this.sink[level]({ ...fields, ...again, err }, kind);
  }
}
