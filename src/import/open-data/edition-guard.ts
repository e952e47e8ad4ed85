// An older week's file after a newer one would roll every change between them back, and send
// each as a webhook to every subscriber: last week's zip imported again by mistake, a cron job
// that fetched from a stale mirror. So the register keeps, for each source, the date of the
// newest file it took, and an older file is refused unless the operator says it is meant.
import type { Store } from '../../store/store.js';
import { fileEdition } from '../source/file-edition.js';
import type { OpenDataSource } from './read-source.js';

export class OlderFileError extends Error {
  constructor(
    readonly file: Date,
    readonly newest: Date,
  ) {
    super(`the file is of ${day(file)}, older than the ${day(newest)} file this register already took`);
    this.name = 'OlderFileError';
  }
}

const settingOf = (source: OpenDataSource) => `open_data_newest_file.${source}`;

const day = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

/**
 * The file's date, checked against the newest the register took from the source: an older one
 * throws OlderFileError unless allowed. The same date passes (the same file again changes nothing).
 */
export async function checkEdition(store: Store, source: OpenDataSource, path: string, allowOlder: boolean): Promise<Date | null> {
  const edition = await fileEdition(path);
  if (edition === null || allowOlder) return edition;
  const stored = await store.getSetting(settingOf(source));
  const newest = stored === null ? null : new Date(stored);
  if (newest !== null && !Number.isNaN(newest.getTime()) && edition.getTime() < newest.getTime()) throw new OlderFileError(edition, newest);
  return edition;
}

/** After an import that read the file: its date becomes the newest, unless a newer one was taken. */
export async function recordEdition(store: Store, source: OpenDataSource, edition: Date | null): Promise<void> {
  if (edition === null) return;
  const stored = await store.getSetting(settingOf(source));
  if (stored !== null && new Date(stored).getTime() >= edition.getTime()) return;
  await store.setSetting(settingOf(source), edition.toISOString());
}
