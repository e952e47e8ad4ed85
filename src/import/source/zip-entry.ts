// The single text file inside a source's zip, as a stream inflated on the fly, its CRC-32 checked
// as it is read (yauzl does not check it: a byte changed inside a stored entry went into the
// register unnoticed).
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';

export interface ZipEntryStream {
  name: string;
  uncompressedSize: number;
  stream: Readable;
}

/**
 * The archive's one `.txt` entry, or its one file when none is named so. An archive with two
 * candidates is refused rather than one of them read on a guess.
 */
export function openZipEntry(path: string): Promise<ZipEntryStream> {
  return new Promise((resolve, reject) => {
    // Not closed on its own at the end of the directory: the entry is opened after it is read.
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (err, zip) => {
      if (err || !zip) return reject(unreadableZip(path, err));
      const fail = (e: Error) => {
        zip.close();
        reject(e);
      };
      const files: yauzl.Entry[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) files.push(entry);
        zip.readEntry();
      });
      zip.on('end', () => {
        let entry: yauzl.Entry;
        try {
          entry = theTextEntry(files, path);
        } catch (e) {
          return fail(e as Error);
        }
        // yauzl's words ("entry is encrypted, and options.decodeFileData !== false") say neither.
        if (entry.isEncrypted()) return fail(new Error(`${entry.fileName} in ${path} is encrypted; unpack it with its password and import the text file`));
        // Stored (0) and deflated (8) are what yauzl reads; its words for others name nothing.
        if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
          return fail(new Error(`${entry.fileName} in ${path} is compressed with method ${entry.compressionMethod} (not deflate); unpack it and import the text file`));
        }
        zip.openReadStream(entry, (e, raw) => {
          if (e || !raw) return fail(e ?? new Error(`cannot read ${entry.fileName}`));
          const stream = raw.pipe(checkedCrc(entry, path));
          // The inflater's or yauzl's own words ("too many bytes in the stream. expected 2906…",
          // "invalid distance too far back") name neither the file nor what is wrong with it.
          raw.on('error', (re) => stream.destroy(damaged(`${entry.fileName} in ${path} is damaged: ${re.message}`)));
          stream.on('close', () => zip.close());
          resolve({ name: entry.fileName, uncompressedSize: entry.uncompressedSize, stream });
        });
      });
      zip.on('error', (e: Error) => fail(unreadableZip(path, e)));
      zip.readEntry();
    });
  });
}

/**
 * The code of an error found in the entry's bytes as they are read (its checksum at the end, its
 * compressed data): the file was taken, and its import failed, unlike a file refused before a
 * line of it was read. A code, not a class: it crosses from the reading thread (read-messages.ts).
 */
export const DAMAGED_FILE = 'BOLAG_FILE_DAMAGED';

function damaged(message: string): Error {
  return Object.assign(new Error(message), { code: DAMAGED_FILE });
}

export function isDamagedFile(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === DAMAGED_FILE;
}

/** yauzl's words ("End of central directory record signature not found…") name no file. */
export function unreadableZip(path: string, err: Error | null): Error {
  return new Error(`${path} cannot be read as a zip archive: ${err?.message ?? 'no archive'}`);
}

/**
 * The entry an import reads: the archive's one `.txt`, or its one file when none is named so.
 * What macOS adds when it zips (`__MACOSX/`, `._name` beside each file) is no candidate.
 */
export function theTextEntry(files: readonly yauzl.Entry[], path: string): yauzl.Entry {
  files = files.filter((f) => !/(^|\/)__MACOSX\//.test(f.fileName) && !/(^|\/)\._[^/]*$/.test(f.fileName) && !/(^|\/)\.DS_Store$/.test(f.fileName));
  const texts = files.filter((f) => /\.txt$/i.test(f.fileName));
  const candidates = texts.length > 0 ? texts : files;
  if (candidates.length === 0) throw new Error(`${path} holds no file`);
  if (candidates.length > 1) {
    throw new Error(`${path} holds ${candidates.length} files (${candidates.map((f) => f.fileName).join(', ')}); give the one to import, unpacked`);
  }
  return candidates[0];
}

/** Passes the entry's bytes on, and fails at their end if their CRC-32 is not the one the archive gives. */
function checkedCrc(entry: yauzl.Entry, path: string): Transform {
  let crc = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      crc = crc32(chunk, crc);
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      if (crc >>> 0 === entry.crc32 >>> 0) return done();
      done(damaged(`${entry.fileName} in ${path} is damaged: its checksum does not match (CRC-32 ${(crc >>> 0).toString(16)}, the archive says ${(entry.crc32 >>> 0).toString(16)})`));
    },
  });
}
