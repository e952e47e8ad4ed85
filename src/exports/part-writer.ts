// Writes an export's encoded rows into parts of at most `partRows` rows each, through the
// store's export files (on disk for SQLite, in the database for PostgreSQL). A part becomes
// visible under its name only when it is complete and durable. Rows, bytes and sha256 come
// from the bytes written.
import { createHash, type Hash } from 'node:crypto';
import type { ExportFiles, PartSink } from '../store/store.js';
import type { EncodedSlice } from './encoders.js';

export interface WrittenPart {
  /** File name of the part (also its download name's source). */
  name: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface PartWriterOptions {
  files: ExportFiles;
  exportId: string;
  partRows: number;
  /** Written at the start of every part (CSV: BOM and header). */
  preamble: string;
  extension: string;
}

interface OpenPart {
  name: string;
  sink: PartSink;
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
  /** Parts being made durable while the next one is written. */
  private closing: Promise<void>[] = [];

  constructor(private readonly opts: PartWriterOptions) {}

  /** Appends a slice of rows, closing a part whenever it reaches partRows. */
  async write(slice: EncodedSlice): Promise<void> {
    let row = 0;
    while (row < slice.rows) {
      if (this.current === null) await this.openPart();
      const part = this.current!;
      const take = Math.min(slice.rows - row, this.opts.partRows - part.rows);
      const start = row === 0 ? 0 : slice.ends[row - 1];
      const end = slice.ends[row + take - 1];
      await this.append(slice.bytes.subarray(start, end));
      part.rows += take;
      row += take;
      if (part.rows >= this.opts.partRows) this.closePart();
    }
  }

  /** Closes the last part; an export without rows still gets one part (its header, for CSV). */
  async finish(): Promise<WrittenPart[]> {
    if (this.current === null && this.parts.length === 0) await this.openPart();
    if (this.current !== null) this.closePart();
    await Promise.all(this.closing);
    return this.parts;
  }

  /** Drops the open part. */
  async abort(): Promise<void> {
    await Promise.allSettled(this.closing);
    const part = this.current;
    this.current = null;
    if (part) await part.sink.abort();
  }

  private async openPart(): Promise<void> {
    const name = partFileName(this.parts.length + 1, this.opts.extension);
    const sink = await this.opts.files.createPart(this.opts.exportId, name);
    this.current = { name, sink, hash: createHash('sha256'), rows: 0, bytes: 0 };
    if (this.opts.preamble) await this.append(Buffer.from(this.opts.preamble, 'utf8'));
  }

  private async append(bytes: Uint8Array): Promise<void> {
    const part = this.current!;
    part.hash.update(bytes);
    part.bytes += bytes.length;
    await part.sink.write(bytes);
  }

  /**
   * Finishes the current part in the background (made durable and visible), so the next part
   * is written meanwhile; finish() waits for all of them. Its entry in the list is made now, in order.
   */
  private closePart(): void {
    const part = this.current!;
    this.current = null;
    this.parts.push({ name: part.name, rows: part.rows, bytes: part.bytes, sha256: part.hash.digest('hex') });
    const done = part.sink.finish();
    done.catch(() => undefined); // reported by finish()
    this.closing.push(done);
  }
}
