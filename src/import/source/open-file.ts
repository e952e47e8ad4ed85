// An open-data file as a stream of bytes: the .txt itself or the one text entry of its .zip,
// inflated while it is read (never unpacked to disk). Its lines are found and decoded by
// open-data/classify-lines.ts.
import { createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { openZipEntry } from './zip-entry.js';

export type TextEncoding = 'utf-8' | 'windows-1252';

export interface SourceFile {
  /** Uncompressed size in bytes, for progress. */
  totalBytes: number;
  stream: Readable;
}

/** Read a chunk at a time of this size (the chunks are copied into batches of whole lines). */
const READ_CHUNK_BYTES = 64 * 1024;

export async function openSourceFile(path: string): Promise<SourceFile> {
  if (await isZipFile(path)) {
    const entry = await openZipEntry(path);
    return { totalBytes: entry.uncompressedSize, stream: entry.stream };
  }
  return { totalBytes: statSync(path).size, stream: createReadStream(path, { highWaterMark: READ_CHUNK_BYTES }) };
}

/** A zip by its name or, whatever it is called, by its first four bytes. */
export async function isZipFile(path: string): Promise<boolean> {
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
