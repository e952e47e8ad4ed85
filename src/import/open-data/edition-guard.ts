// An older week's file after a newer one would roll every change between them back, and send
// each as a webhook to every subscriber: last week's zip imported again by mistake, a cron job
// that fetched from a stale mirror. So the register keeps, for each source, the date of the
// newest file it took, and an older file is refused unless the operator says it is meant.
//
// The date is claimed before the import reads a line, in one compare-and-set: of two imports
// started at once (the 30th's and the 23rd's), the one that claims second sees the other's date
// and is refused, instead of both passing a check and the older one writing last. An import that
// changed nothing (refused, --strict and failed, the file mostly unreadable) gives the claim back.
import { newestFileSetting } from '../../store/import-settings.js';
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

const day = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

/** A date this import made the source's newest, and what it was before (to give it back). */
export interface EditionClaim {
  name: string;
  claimed: string;
  previous: string | null;
}

/**
 * The file's date made the source's newest. An older one throws OlderFileError unless allowed;
 * allowed, it becomes the newest (the register is that week's now, and next week's file is newer
 * than it). The same date passes (the same file again changes nothing). Null: the file tells no date.
 */
export async function claimEdition(
  store: Store,
  source: OpenDataSource,
  path: string,
  allowOlder: boolean,
  /** The file tells no date, and the register took a dated one: it cannot be checked. */
  onUndated?: (newest: Date) => void,
): Promise<EditionClaim | null> {
  const edition = await fileEdition(path);
  const name = newestFileSetting(source);
  if (edition === null) {
    const stored = await store.getSetting(name);
    if (stored !== null && onUndated) onUndated(new Date(stored));
    return null;
  }
  const claimed = edition.toISOString();
  for (let attempt = 0; attempt < 10; attempt++) {
    const stored = await store.getSetting(name);
    const newest = stored === null ? null : new Date(stored);
    if (newest !== null && !Number.isNaN(newest.getTime()) && edition.getTime() < newest.getTime() && !allowOlder) throw new OlderFileError(edition, newest);
    if (stored === claimed) return null;
    if (await store.swapSetting(name, stored, claimed)) return { name, claimed, previous: stored };
  }
  throw new Error(`the date of the newest ${source} file kept changing under this import; try again`);
}

/** An import that failed, or did not take the file as the source's week: the date before it, unless another import claimed one since. */
export async function giveBackEdition(store: Store, claim: EditionClaim | null): Promise<void> {
  if (claim) await store.swapSetting(claim.name, claim.claimed, claim.previous);
}
