// The three streams and what we know about them. Output depends on whether stdout is a
// terminal; notices, spinners and errors go to stderr. Tests build an IOStreams over buffers.
import { PassThrough, type Readable, type Writable } from 'node:stream';

export interface IOStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width of stdout (80 when unknown). */
  columns(): number;
  /**
   * Terminal width of stderr; 0 when it is no terminal or one that does not know its width
   * (`script` or `docker exec -t` without a size): nothing may be redrawn there by lines.
   */
  stderrColumns(): number;
  /** Width to wrap help text at: the terminal's, else $COLUMNS, else 100 (help piped to a file or pager). */
  helpWidth(stream: 'out' | 'err'): number;
  /** Whether colour may be used on the terminal (false with --no-color or NO_COLOR). */
  color: boolean;
}

export function systemIO(env: NodeJS.ProcessEnv = process.env): IOStreams {
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  return {
    // process.stdin is a getter that opens the stream: only a command that reads it pays
    // (`bolag --help` has a start-up budget).
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return Boolean(process.stdin.isTTY);
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdoutIsTTY,
    stderrIsTTY: Boolean(process.stderr.isTTY),
    columns: () => process.stdout.columns || Number(env.COLUMNS) || 80,
    stderrColumns: () => (process.stderr.isTTY ? process.stderr.columns || 0 : 0),
    helpWidth: (stream) => (stream === 'out' ? process.stdout : process.stderr).columns || Number(env.COLUMNS) || 100,
    // no-color.org: NO_COLOR turns colour off when set and not empty.
    color: stdoutIsTTY && (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb',
  };
}

export interface TestIO extends IOStreams {
  out(): string;
  err(): string;
}

/** Buffered streams for tests: `tty` decides how commands format their output. */
export function testIO(opts: { tty?: boolean; columns?: number; stdin?: string } = {}): TestIO {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  if (opts.stdin !== undefined) stdin.end(opts.stdin);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const tty = opts.tty ?? false;
  return {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    columns: () => opts.columns ?? 100,
    stderrColumns: () => (tty ? (opts.columns ?? 100) : 0),
    helpWidth: () => opts.columns ?? 100,
    color: false,
    out: () => Buffer.concat(out).toString('utf8'),
    err: () => Buffer.concat(err).toString('utf8'),
  };
}
