// Waiting for an export: polls GET /exports/{id} with backoff until it is completed or failed.
// On a terminal an ora spinner on stderr shows the status and the rows so far; otherwise quiet.
import type { HttpClient } from '../../http-client.js';
import { ExportFailedError } from '../../errors/index.js';
import type { IOStreams } from '../../io.js';
import { formatNumber } from '../../output/swedish.js';
import type { ExportRecord } from './types.js';

export interface WaitOptions {
  client: HttpClient;
  io: IOStreams;
  signal: AbortSignal;
  /** --quiet: no spinner. */
  quiet?: boolean;
  /** First and longest pause between two polls. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export interface Spinner {
  text: string;
  start(): Spinner;
  succeed(text?: string): Spinner;
  fail(text?: string): Spinner;
  stop(): Spinner;
}

/**
 * An ora spinner on stderr when it is a terminal of a known width, else a silent stand-in: also
 * with --quiet ("only data and errors"). At width 0 ora erases an endless number of lines at each
 * frame (tens of MB a second, which kept the local register's server from running the export it
 * waited for).
 */
export async function spinnerFor(io: IOStreams, text: string, quiet = false): Promise<Spinner> {
  if (quiet || !io.stderrIsTTY || io.stderrColumns() === 0) {
    const silent: Spinner = { text, start: () => silent, succeed: () => silent, fail: () => silent, stop: () => silent };
    return silent;
  }
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: io.stderr as NodeJS.WritableStream, isEnabled: true, discardStdin: false, color: io.color ? 'cyan' : false }).start();
  if (io.color) return spinner;
  // NO_COLOR / --no-color: ora's own ✔ and ✖ come coloured whatever it is told.
  const plain: Spinner = {
    get text() {
      return spinner.text;
    },
    set text(t: string) {
      spinner.text = t;
    },
    start: () => (spinner.start(), plain),
    succeed: (t?: string) => (spinner.stopAndPersist({ symbol: '✔', text: t }), plain),
    fail: (t?: string) => (spinner.stopAndPersist({ symbol: '✖', text: t }), plain),
    stop: () => (spinner.stop(), plain),
  };
  return plain;
}

export function describeProgress(e: ExportRecord): string {
  const rows = e.row_count ?? 0;
  const estimate = e.estimated_rows > 0 ? ` of ~${formatNumber(e.estimated_rows)}` : '';
  if (e.status === 'queued') return `Export ${e.id}: queued (~${formatNumber(e.estimated_rows)} rows)`;
  if (e.status === 'running') return `Export ${e.id}: running, ${formatNumber(rows)}${estimate} rows`;
  if (e.status === 'completed') return `Export ${e.id}: completed, ${formatNumber(rows)} rows in ${e.files.length} ${e.files.length === 1 ? 'file' : 'files'}`;
  return `Export ${e.id}: failed`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves with the completed export; throws ExportFailedError (exit 5) when it failed. */
export async function waitForExport(id: string, first: ExportRecord | null, opts: WaitOptions): Promise<ExportRecord> {
  const path = `/exports/${encodeURIComponent(id)}`;
  let e = first ?? (await opts.client.get<{ data: ExportRecord }>(path, { signal: opts.signal })).data.data;
  const spinner = await spinnerFor(opts.io, describeProgress(e), opts.quiet);
  let delay = opts.minDelayMs ?? 250;
  const maxDelay = opts.maxDelayMs ?? 5000;
  try {
    while (e.status === 'queued' || e.status === 'running') {
      await sleep(delay, opts.signal);
      // Back off while nothing moves; a running export is polled at a steadier pace.
      delay = Math.min(maxDelay, Math.round(delay * (e.status === 'running' ? 1.25 : 1.6)));
      e = (await opts.client.get<{ data: ExportRecord }>(path, { signal: opts.signal })).data.data;
      spinner.text = describeProgress(e);
    }
  } catch (error) {
    spinner.stop();
    throw error;
  }
  if (e.status === 'failed') {
    spinner.fail(describeProgress(e));
    throw new ExportFailedError(`Export ${e.id} failed: ${e.error?.message ?? 'no reason given'}`, {
      exportId: e.id,
      hint: 'create it again; if it fails again, quote the export id',
    });
  }
  spinner.succeed(describeProgress(e));
  return e;
}
