// The single text file inside a source's zip, as a stream inflated on the fly.
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

export interface ZipEntryStream {
  name: string;
  uncompressedSize: number;
  stream: Readable;
}

/** The first `.txt` entry (or the first file) of the archive. */
export function openZipEntry(path: string): Promise<ZipEntryStream> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error(`cannot open ${path}`));
      let fallback: yauzl.Entry | null = null;
      const use = (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error(`cannot read ${entry.fileName}`));
          resolve({ name: entry.fileName, uncompressedSize: entry.uncompressedSize, stream });
        });
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        if (/\.txt$/i.test(entry.fileName)) return use(entry);
        fallback ??= entry;
        zip.readEntry();
      });
      zip.on('end', () => (fallback ? use(fallback) : reject(new Error(`${path} holds no file`))));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
