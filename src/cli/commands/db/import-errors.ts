// Lines of an open-data file that could not be read: all of them to --errors FILE (tab-separated
// line number, reason and the line itself), the first few in the summary on stderr. Lines are
// parsed when the register needs them (unchanged ones not at all), so within a batch of 5,000
// they may come out of order: the file has them as found, the summary the lowest line numbers.
import { createWriteStream, openSync, statSync, type WriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../errors/index.js';
import { terminalText } from '../../output/terminal-text.js';

const SHOWN = 10;

export class ImportErrorLog {
  private readonly file: WriteStream | null;
  private readonly first: { line: number; text: string }[] = [];
  count = 0;

  /** Why the file stopped taking lines (a disk that filled up), said in the summary. */
  private failed: string | null = null;

  /**
   * Opened before the import reads a line: a path that cannot be written is a usage error, not a
   * crash at the first bad line. Never the file imported, the register or one of the register's
   * own files (its log, its locks): opening the log empties it, and `--errors register.db`
   * emptied the register.
   */
  constructor(
    private readonly path: string | undefined,
    kept: { file?: string; register?: string } = {},
  ) {
    let fd: number | undefined;
    if (path) {
      const register = kept.register && resolve(kept.register);
      const clash =
        kept.file !== undefined && isSameFile(path, kept.file)
          ? kept.file
          : register && (isSameFile(path, register) || resolve(path).startsWith(`${register}-`) || resolve(path).startsWith(`${register}.`))
            ? kept.register
            : undefined;
      if (clash !== undefined) throw new UsageError(`--errors ${path} would overwrite ${clash}: give the errors a file of their own.`, { flag: '--errors' });
      try {
        fd = openSync(path, 'w');
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        const why = code === 'EISDIR' ? 'it is a folder' : code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
        throw new UsageError(`Cannot write --errors ${path}: ${why}.`, { flag: '--errors' });
      }
    }
    this.file = fd === undefined ? null : createWriteStream('', { fd });
    this.file?.on('error', (e) => (this.failed ??= e.message));
    this.file?.write('line\treason\ttext\n');
  }

  add(line: number, message: string, text: string): void {
    this.count++;
    if (this.first.length < SHOWN || line < this.first[this.first.length - 1].line) {
      // The message may quote the line: shown on the terminal, never obeyed by it.
      this.first.push({ line, text: `  line ${line}: ${terminalText(message)}` });
      this.first.sort((a, b) => a.line - b.line);
      if (this.first.length > SHOWN) this.first.pop();
    }
    this.file?.write(`${line}\t${message}\t${text.replace(/[\t\r\n]/g, ' ')}\n`);
  }

  summary(): string[] {
    if (this.count === 0) return [];
    const more = this.count > this.first.length ? [`  … and ${this.count - this.first.length} more${this.file ? '' : ' (--errors FILE lists them all)'}`] : [];
    const lost = this.failed ? [`  (--errors ${this.path} could not be written to the end: ${this.failed})`] : [];
    return [`${this.count} line(s) could not be read; they were left out:`, ...this.first.map((f) => f.text), ...more, ...lost];
  }

  close(): Promise<void> {
    const file = this.file;
    return file ? new Promise((resolve) => file.end(resolve)) : Promise.resolve();
  }
}

/** Whether two paths name one file (the same path, or one file under two names). */
function isSameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}
