// When a source's file was made, as far as the file tells: SCB names its text file with the time
// it was written (`scb_bulkfil_JE_20260629T055245_80.txt`), and an archive dates its entry.
// Bolagsverket's text file, unpacked, says nothing (its mtime is the download's, not the week's).
import { basename } from 'node:path';
import yauzl from 'yauzl';
import { isZipFile } from './open-file.js';
import { theTextEntry, unreadableZip } from './zip-entry.js';

/** `…_20260629T055245_…` in a file name (seconds optional): the time SCB wrote it (taken as UTC). */
const NAMED_TIME = /_(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?(?=[_.])/;

/** The earliest time a zip can hold (1980-01-01): an archive made without times. */
const NO_ZIP_TIME = Date.UTC(1980, 0, 2);

export function timeInName(name: string): Date | null {
  const m = NAMED_TIME.exec(basename(name));
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0));
  const at = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return at.getUTCMonth() === mo - 1 && at.getUTCDate() === d && h < 24 && mi < 60 && s < 60 ? at : null;
}

/** A date past tomorrow is a wrong clock, not a week: kept, it would hold back every real file after it. */
const FUTURE_MS = 24 * 3600 * 1000;

/** The file's date: from its (or its entry's) name, else from the archive's entry; null when neither tells. */
export async function fileEdition(path: string, now = Date.now()): Promise<Date | null> {
  const plausible = (d: Date | null) => (d !== null && !Number.isNaN(d.getTime()) && d.getTime() <= now + FUTURE_MS ? d : null);
  if (!(await isZipFile(path))) return plausible(timeInName(path));
  const entry = await zipTextEntry(path);
  const named = timeInName(entry.fileName);
  if (named) return plausible(named);
  // UTC, so that the order of two archives does not depend on the machine's time zone.
  const modified = entry.getLastModDate({ timezone: 'UTC' });
  return modified.getTime() < NO_ZIP_TIME ? null : plausible(modified);
}

function zipTextEntry(path: string): Promise<yauzl.Entry> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(unreadableZip(path, err));
      const files: yauzl.Entry[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) files.push(entry);
        zip.readEntry();
      });
      zip.on('end', () => {
        zip.close();
        try {
          resolve(theTextEntry(files, path));
        } catch (e) {
          reject(e as Error);
        }
      });
      zip.on('error', (e) => {
        zip.close();
        reject(unreadableZip(path, e));
      });
      zip.readEntry();
    });
  });
}
