// Writes an export's lines into part files of at most `partRows` rows each. A part is written
// under a temporary name and renamed only when it is complete and on disk, so a finished name
// never holds a partial file. Rows, bytes and sha256 are counted from the bytes written.
import { createHash, type Hash } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

export interface WrittenPart {
  /** File name inside the export's folder. */
  name: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface PartWriterOptions {
  dir: string;
  partRows: number;
  /** Written at the start of every part (CSV: BOM and header). */
  preamble: string;
  extension: string;
}

/** Flush to disk after about this many characters. */
const FLUSH_CHARS = 1 << 20;

interface OpenPart {
  name: string;
  handle: FileHandle;
  hash: Hash;
  rows: number;
  bytes: number;
}

export function partFileName(index: number, extension: string): string {
  return `part-${String(index).padStart(3, '0')}.${extension}`;
}

export class PartWriter {
  private readonly parts: WrittenPart[] = [];
  private current: OpenPart | null = null;
  private chunks: string[] = [];
  private chars = 0;

  constructor(private readonly opts: PartWriterOptions) {}

  /**
   * Adds one line. Returns a promise only when the caller must wait (a flush or a part
   * boundary), so the common case costs no await.
   */
  write(line: string): Promise<void> | undefined {
    if (this.current === null) return this.openPart().then(() => this.write(line));
    this.chunks.push(line);
    this.chars += line.length;
    this.current.rows++;
    if (this.current.rows >= this.opts.partRows) return this.closePart();
    if (this.chars >= FLUSH_CHARS) return this.flush();
    return undefined;
  }

  /** Closes the last part; an export without rows still gets one part (its header, for CSV). */
  async finish(): Promise<WrittenPart[]> {
    if (this.current === null && this.parts.length === 0) await this.openPart();
    if (this.current !== null) await this.closePart();
    return this.parts;
  }

  /** Closes and removes the open part's temporary file. */
  async abort(): Promise<void> {
    const part = this.current;
    this.current = null;
    this.chunks = [];
    if (part) {
      await part.handle.close().catch(() => undefined);
      await rm(join(this.opts.dir, `${part.name}.tmp`), { force: true });
    }
  }

  private async openPart(): Promise<void> {
    const name = partFileName(this.parts.length + 1, this.opts.extension);
    const handle = await open(join(this.opts.dir, `${name}.tmp`), 'w');
    this.current = { name, handle, hash: createHash('sha256'), rows: 0, bytes: 0 };
    this.chunks = [this.opts.preamble];
    this.chars = this.opts.preamble.length;
  }

  private async flush(): Promise<void> {
    const part = this.current!;
    if (this.chunks.length === 0) return;
    const buffer = Buffer.from(this.chunks.join(''), 'utf8');
    this.chunks = [];
    this.chars = 0;
    part.hash.update(buffer);
    part.bytes += buffer.length;
    let offset = 0;
    while (offset < buffer.length) {
      const { bytesWritten } = await part.handle.write(buffer, offset, buffer.length - offset);
      offset += bytesWritten;
    }
  }

  private async closePart(): Promise<void> {
    await this.flush();
    const part = this.current!;
    await part.handle.datasync();
    await part.handle.close();
    this.current = null;
    await rename(join(this.opts.dir, `${part.name}.tmp`), join(this.opts.dir, part.name));
    this.parts.push({ name: part.name, rows: part.rows, bytes: part.bytes, sha256: part.hash.digest('hex') });
  }
}
