// Downloading an export: every part, each checked against its sha256 before it gets its final
// name. A part is written to `<name>.part` first; an interrupted download resumes from there
// with a Range request (If-Range on the part's ETag, so a changed file starts over), and a
// part that does not match its checksum is never renamed into place.
import { createHash } from 'node:crypto';
import { closeSync, constants, createReadStream, existsSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { access, rename, rm, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { FolderError, makeFolder } from '../../../core/make-folder.js';
import { CliError, ExportFailedError, NetworkError, UsageError } from '../../errors/index.js';
import type { HttpClient } from '../../http-client.js';
import type { IOStreams } from '../../io.js';
import { formatNumber } from '../../output/swedish.js';
import { terminalText } from '../../output/terminal-text.js';
import { spinnerFor, type Spinner } from './wait.js';
import type { ExportFile, ExportRecord } from './types.js';

export interface DownloadOptions {
  client: HttpClient;
  io: IOStreams;
  signal: AbortSignal;
  outDir: string;
  /** --quiet: no spinner. */
  quiet?: boolean;
}

/** Attempts per part: resumes after a broken connection, one fresh start after a bad checksum. */
const ATTEMPTS = 4;
/** Before each resume after a broken connection: a server restarting gets a few seconds. */
const RETRY_DELAYS_MS = [1_000, 2_000, 4_000];

const mb = (bytes: number) => `${formatNumber(Math.round((bytes / 1024 ** 2) * 10) / 10)} MB`;

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

async function sha256Of(path: string, signal: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { signal, highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const PLAIN_NAME = /^[\w.-]+$/;

/**
 * A file name from the server, kept to a plain name inside the output folder. The fallback's
 * export id is the server's too: `../x` as an id wrote the part beside the folder, not in it.
 */
function safeName(file: ExportFile, exportId: string, index: number): string {
  const name = basename(file.name ?? '');
  if (PLAIN_NAME.test(name) && !name.startsWith('.')) return name;
  const id = PLAIN_NAME.test(exportId) && !exportId.startsWith('.') ? exportId : 'export';
  return `${id}-part-${String(index + 1).padStart(3, '0')}`;
}

/** What names a file rather than a folder: the formats' and archives' extensions. */
const FILE_NAME = /\.(csv|jsonl|ndjson|json|txt|tsv|gz|zip)$/i;

/**
 * Creates the output folder, or says at once why it cannot be one. Called before an export is
 * created, so that `create --wait --out FILE` does not leave an export on the server and then fail.
 */
export async function prepareOutDir(outDir: string, flag: string): Promise<void> {
  // `--out companies.csv` made a folder of that name: say what --out is instead, unless the
  // folder is already there.
  if (FILE_NAME.test(basename(outDir)) && !existsSync(outDir)) {
    throw new UsageError(`--out ${flag}: that is a file name, but --out is the folder the export's files go in (an export may have several parts); e.g. --out ./export.`, { flag: '--out' });
  }
  try {
    makeFolder(outDir);
    // A folder that is there but not ours to write in fails the same way, only later.
    await access(outDir, constants.W_OK);
  } catch (error) {
    if (error instanceof FolderError) throw new UsageError(`--out ${flag}: ${error.reason}${error.path === resolve(outDir) ? '' : ` (${error.path})`}.`, { flag: '--out' });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new UsageError(`--out ${flag}: a file is in the way, not a folder.`, { flag: '--out' });
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw new UsageError(`--out ${flag}: cannot write there (${code}).`, { flag: '--out' });
    throw error;
  }
}

/** Downloads every part of a completed export into outDir; returns the paths written. */
export async function downloadExport(e: ExportRecord, opts: DownloadOptions): Promise<string[]> {
  // Its files deleted when its link expired (the record stays, with no files): nothing to get,
  // which is no success (it exited 0 with an empty folder).
  if (e.status === 'completed' && e.files.length === 0) {
    const when = e.expires_at ? ` at ${e.expires_at}` : '';
    throw new CliError(`Export ${terminalText(e.id)} expired${when}: its files are deleted 24 hours after it completes.`, { hint: 'create the export again' });
  }
  makeFolder(opts.outDir);
  const spinner = await spinnerFor(opts.io, `Downloading ${terminalText(e.id)}`, opts.quiet);
  const paths: string[] = [];
  try {
    for (const [i, file] of e.files.entries()) {
      const target = join(opts.outDir, safeName(file, e.id, i));
      const label = `Downloading ${e.files.length === 1 ? terminalText(e.id) : `part ${i + 1} of ${e.files.length}`}`;
      await downloadPart(file, target, label, spinner, opts);
      paths.push(target);
    }
  } catch (error) {
    spinner.stop();
    throw error;
  }
  const total = e.files.reduce((n, f) => n + f.bytes, 0);
  spinner.succeed(`Downloaded ${e.files.length} ${e.files.length === 1 ? 'file' : 'files'} (${mb(total)}), sha256 verified`);
  return paths;
}

async function downloadPart(file: ExportFile, target: string, label: string, spinner: Spinner, opts: DownloadOptions): Promise<void> {
  // Already here and intact (a download run twice): nothing to fetch.
  if ((await sizeOf(target)) === file.bytes && (await sha256Of(target, opts.signal)) === file.sha256) return;
  const partial = `${target}.part`;
  let lastError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let offset = (await sizeOf(partial)) ?? 0;
    if (offset > file.bytes) {
      await rm(partial, { force: true });
      offset = 0;
    }
    try {
      // An empty part is fetched too: its file is made by what arrives (nothing).
      if (offset < file.bytes || !existsSync(partial)) await fetchInto(file, partial, offset, (done) => (spinner.text = `${label}: ${mb(done)} of ${mb(file.bytes)}`), opts);
    } catch (error) {
      if (opts.signal.aborted || !(error instanceof NetworkError || isBrokenBody(error))) throw error;
      lastError = error; // the connection broke: resume from what arrived, after a moment
      if (attempt < ATTEMPTS - 1) await pause(RETRY_DELAYS_MS[attempt] ?? 4_000, opts.signal);
      continue;
    }
    // The checksum of what is on disk, read back: what the user gets is what was checked.
    spinner.text = `${label}: checking sha256`;
    const size = (await sizeOf(partial)) ?? 0;
    if (size === file.bytes && (await sha256Of(partial, opts.signal)) === file.sha256) {
      await rename(partial, target);
      return;
    }
    // Wrong bytes: never keep them. Start this part over once more.
    await rm(partial, { force: true });
    lastError = new ExportFailedError(`${basename(target)} does not match its sha256 (${file.sha256}); the file was not kept.`, {
      hint: 'run bolag export download again',
    });
  }
  // A bad checksum is the export's failure (5); a connection that kept breaking is not (1).
  throw lastError instanceof ExportFailedError
    ? lastError
    : new CliError(`Downloading ${basename(target)} failed: ${(lastError as Error)?.message ?? lastError}`, {
        hint: `run the same command again: it resumes from ${basename(partial)}`,
      });
}

/** Waits, or stops at once with the rest of the command when it is interrupted. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

function isBrokenBody(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? '';
  return code.startsWith('UND_ERR') || code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE';
}

/** GETs the part from `offset` (206) or from the start (200: the server ignored the range) into `partial`. */
async function fetchInto(
  file: ExportFile,
  partial: string,
  offset: number,
  progress: (done: number) => void,
  opts: DownloadOptions,
): Promise<void> {
  const headers: Record<string, string> = offset > 0 ? { range: `bytes=${offset}-`, 'if-range': `"${file.sha256}"` } : {};
  const res = await opts.client.stream('GET', file.url, { headers, signal: opts.signal });
  // 206: the rest of the file. Anything else is the whole file, replacing what the partial held.
  const position = res.status === 206 ? offset : 0;
  const fd = openSync(partial, position === 0 ? 'w' : 'r+');
  try {
    await new Promise<void>((resolve, reject) => {
      let at = position;
      let lastShown = 0;
      // Written synchronously as each chunk arrives: the body keeps flowing and never holds the
      // connection paused (undici's parser crashes when a paused connection is closed by the
      // other side, nodejs/undici#5360), and a part's chunks are small next to the disk's speed.
      res.body.on('data', (chunk: Buffer) => {
        try {
          for (let written = 0; written < chunk.length; ) written += writeSync(fd, chunk, written, chunk.length - written, at + written);
        } catch (error) {
          res.body.destroy(error as Error);
          return;
        }
        at += chunk.length;
        const now = Date.now();
        if (now - lastShown > 100) {
          lastShown = now;
          progress(at);
        }
      });
      res.body.once('end', resolve);
      res.body.once('error', reject);
    });
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
