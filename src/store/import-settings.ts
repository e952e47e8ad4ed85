// The settings an import of the open-data files keeps in the register, named in one place so
// that a register replaced by a generated one (`db seed --replace`) forgets them all.
import { SOURCE_BITS } from './import-types.js';

type OpenDataSource = keyof typeof SOURCE_BITS;

/**
 * The settings row of an unfinished first load of the source with this SOURCE_BITS bit.
 *
 * A source's first load records no events: building the register is not a change anyone
 * subscribed to. One that stopped half-way (Ctrl-C, a kill, a crash) left rows that list the
 * source, and the run that finishes it was then taken for a weekly update: every company the
 * first run had not reached became a company.created (or, onto the other source's register, a
 * company.updated) webhook, up to millions of them. So a batch-by-batch first load notes itself
 * before its first row and clears the note once it has finished; an import of the source that
 * finds the note finishes the first load, as quietly.
 */
export function firstLoadNote(sourceBit: number): string {
  return `first_load_unfinished.${sourceBit}`;
}

/** The date of the newest file the register took from the source (import/open-data/edition-guard.ts). */
export function newestFileSetting(source: OpenDataSource): string {
  return `open_data_newest_file.${source}`;
}

/** Every such setting. */
export const IMPORT_SETTINGS: readonly string[] = (Object.keys(SOURCE_BITS) as OpenDataSource[]).flatMap((s) => [firstLoadNote(SOURCE_BITS[s]), newestFileSetting(s)]);
