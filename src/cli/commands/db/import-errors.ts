// Lines of an open-data file that could not be read: all of them to --errors FILE (tab-separated
// line number, reason and the line itself), the first few in the summary on stderr. Lines are
// parsed when the register needs them (unchanged ones not at all), so within a batch of 5,000
// they may come out of order: the file has them as found, the summary the lowest line numbers.
import { createWriteStream, type WriteStream } from 'node:fs';

const SHOWN = 10;

export class ImportErrorLog {
  private readonly file: WriteStream | null;
  private readonly first: { line: number; text: string }[] = [];
  count = 0;

  constructor(path: string | undefined) {
    this.file = path ? createWriteStream(path) : null;
    this.file?.write('line\treason\ttext\n');
  }

  add(line: number, message: string, text: string): void {
    this.count++;
    if (this.first.length < SHOWN || line < this.first[this.first.length - 1].line) {
      this.first.push({ line, text: `  line ${line}: ${message}` });
      this.first.sort((a, b) => a.line - b.line);
      if (this.first.length > SHOWN) this.first.pop();
    }
    this.file?.write(`${line}\t${message}\t${text.replace(/[\t\r\n]/g, ' ')}\n`);
  }

  summary(): string[] {
    if (this.count === 0) return [];
    const more = this.count > this.first.length ? [`  … and ${this.count - this.first.length} more${this.file ? '' : ' (--errors FILE lists them all)'}`] : [];
    return [`${this.count} line(s) could not be read and were left out:`, ...this.first.map((f) => f.text), ...more];
  }

  close(): Promise<void> {
    const file = this.file;
    return file ? new Promise((resolve) => file.end(resolve)) : Promise.resolve();
  }
}
