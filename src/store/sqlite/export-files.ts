// Export files of the embedded store: on disk, one folder per export under the export root
// (`exports/` beside the database unless told otherwise). A part is written under a temporary
// name and renamed once complete and on disk, so a finished name never holds a partial file.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ByteRange, ExportFiles, PartSink } from '../store.js';

export class DiskExportFiles implements ExportFiles {
  constructor(readonly root: string) {}

  folder(exportId: string): string {
    return join(this.root, exportId);
  }

  async createPart(exportId: string, name: string): Promise<PartSink> {
    const dir = this.folder(exportId);
    // An account's data: readable by the server's user only, not by every user of the machine
    // (folders made here; one that is there keeps its mode).
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const final = join(dir, name);
    // Unique per writer: two runs of one export (a lapsed lease) never write into one temporary file.
    const tmp = `${final}.${randomBytes(4).toString('hex')}.tmp`;
    const handle = await open(tmp, 'w', 0o600);
    return {
      async write(bytes) {
        let offset = 0;
        while (offset < bytes.length) offset += (await handle.write(bytes, offset, bytes.length - offset)).bytesWritten;
      },
      async finish() {
        await handle.datasync();
        await handle.close();
        await rename(tmp, final);
      },
      async abort() {
        await handle.close().catch(() => undefined);
        await rm(tmp, { force: true });
      },
    };
  }

  async size(exportId: string, name: string): Promise<number | null> {
    try {
      return (await stat(join(this.folder(exportId), name))).size;
    } catch {
      return null;
    }
  }

  read(exportId: string, name: string, range?: ByteRange): NodeJS.ReadableStream {
    return createReadStream(join(this.folder(exportId), name), range ? { start: range.start, end: range.end } : {});
  }

  async clear(exportId: string): Promise<void> {
    await rm(this.folder(exportId), { recursive: true, force: true });
  }
}
