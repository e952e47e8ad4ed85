// The text of an open-data file, as a stream of lines: the .txt itself or the one text entry of
// its .zip, inflated while it is read (never unpacked to disk), decoded as the source writes it.
import { createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { openZipEntry } from './zip-entry.js';

export type TextEncoding = 'utf-8' | 'windows-1252';

export interface TextLine {
  /** 1-based line number in the text file. */
  line: number;
  text: string;
}

export interface TextSource {
  /** Uncompressed size in bytes, for progress. */
  totalBytes: number;
  /** Uncompressed bytes read so far. */
  bytesRead(): number;
  /** The lines, a chunk of the file at a time (one await per chunk rather than per line). */
  lines: AsyncGenerator<TextLine[]>;
}

/**
 * Read a chunk at a time of this size. Under V8's large-object size (128 KiB), so that a chunk's
 * decoded text, which every line read from it is a slice of, is allocated young and dies young:
 * at 1 MiB each chunk was a large object, old-generation garbage until a full collection, and a
 * weekly update of 3 million lines (its fingerprints read per batch) peaked at 270–297 MB instead
 * of 173.
 */
const READ_CHUNK_BYTES = 64 * 1024;

export async function openTextSource(path: string, encoding: TextEncoding): Promise<TextSource> {
  let stream: Readable;
  let totalBytes: number;
  if (await isZip(path)) {
    const entry = await openZipEntry(path);
    stream = entry.stream;
    totalBytes = entry.uncompressedSize;
  } else {
    stream = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
    totalBytes = statSync(path).size;
  }
  // Counted as the lines are consumed: a 'data' listener would set the stream flowing and
  // buffer the whole file ahead of the importer.
  const counter = { bytes: 0 };
  return { totalBytes, bytesRead: () => counter.bytes, lines: splitLines(stream, encoding, counter) };
}

async function isZip(path: string): Promise<boolean> {
  if (/\.zip$/i.test(path)) return true;
  const { open } = await import('node:fs/promises');
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    await fh.read(head, 0, 4, 0);
    return head.readUInt32LE(0) === 0x04034b50; // "PK\3\4"
  } finally {
    await fh.close();
  }
}

/** Lines without their CR, by chunk read; a final line without a newline counts too. */
async function* splitLines(stream: Readable, encoding: TextEncoding, counter: { bytes: number }): AsyncGenerator<TextLine[]> {
  // The WHATWG decoder reads windows-1252 (a superset of Latin-1 for printable text), and in
  // streaming mode keeps a multi-byte UTF-8 character that a chunk boundary cuts in two.
  const decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: false });
  let pending = '';
  let line = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    counter.bytes += chunk.length;
    pending += decoder.decode(chunk, { stream: true });
    let start = 0;
    const lines: TextLine[] = [];
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
      const end = nl > start && pending.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      lines.push({ line: ++line, text: pending.slice(start, end) });
      start = nl + 1;
    }
    pending = pending.slice(start);
    if (lines.length > 0) yield lines;
  }
  pending += decoder.decode();
  if (pending.endsWith('\r')) pending = pending.slice(0, -1);
  if (pending.length > 0) yield [{ line: ++line, text: pending }];
}
