// Writes a large text file through a 4 MB buffer, synchronously: generating gigabytes stays cheap.
import { closeSync, openSync, writeSync } from 'node:fs';

export class ChunkedWriter {
  private readonly fd: number;
  private parts: Buffer[] = [];
  private size = 0;
  bytes = 0;

  constructor(path: string, private readonly encoding: 'utf8' | 'latin1') {
    this.fd = openSync(path, 'w');
  }

  write(text: string): void {
    const b = Buffer.from(text, this.encoding);
    this.parts.push(b);
    this.size += b.length;
    if (this.size >= 4 << 20) this.flush();
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    const all = Buffer.concat(this.parts);
    writeSync(this.fd, all);
    this.bytes += all.length;
    this.parts = [];
    this.size = 0;
  }
}
