// `bolag db import --source bolagsverket|scb FILE`: the zip or its text file, streamed and
// merged into the register batch by batch (each batch its own transaction, so a running server
// keeps delivering), organisations the file no longer lists marked, none deleted.
import { isPersonalNumber } from '../core/orgnr.js';
import { ImportError } from './import-error.js';
import { claimEdition, giveBackEdition } from './open-data/edition-guard.js';
import { checkedPlanner } from './open-data/plan-checked.js';
import { FIRST_LOAD_WRITES, planVanished } from './open-data/plan-source-row.js';
import { readLinesAhead } from './open-data/read-ahead.js';
import { type OpenDataSource, type ReadStats, readSourceRecords } from './open-data/read-source.js';
import { IMPORT_BATCH_SIZE, type ImportResult, type ImportWait, SOURCE_BITS } from '../store/import-types.js';
import type { Store } from '../store/store.js';

export interface OpenDataImportOptions {
  source: OpenDataSource;
  includePersons?: boolean;
  strict?: boolean;
  batchSize?: number;
  /** Mark every organisation the file no longer lists, however many (else at most vanishedLimit). */
  markAllVanished?: boolean;
  /** Import a file older than the newest the register took from the source (edition-guard.ts). */
  allowOlder?: boolean;
  /** The file tells no date, so it cannot be checked against the newest the register took (that one's date). */
  onUndated?: (newest: Date) => void;
  onError?: (line: number, message: string, text: string) => void;
  /** After each batch: records read, uncompressed bytes read and in all. */
  onProgress?: (p: { lines: number; bytes: number; totalBytes: number }) => void;
  /** A first load's index builds after its last batch (ImportOptions.onIndexes). */
  onIndexes?: (done: number, total: number) => void;
  /** Waiting for another process's first load of the register, or its write lock (ImportOptions.onWait). */
  onWait?: (why: ImportWait) => void;
}

/**
 * The most organisations one import marks as vanished unless told to mark all: 5 % of those the
 * source listed, at least 1,000. A real week loses about 0.3 % (Bolagsverket's bench week:
 * 7,790 of 2.55 million); a file cut short or the wrong file would mark most of the register as
 * gone and send a webhook for each, so then none is marked and the import says so.
 */
export function vanishedLimit(listed: number): number {
  return Math.max(1_000, Math.floor(listed * 0.05));
}

/**
 * Why organisations the file no longer lists were not marked as vanished at all: its last line
 * was cut off (a download or copy cut short: the lines after it are missing, not gone), or too
 * many lines could not be read (the wrong file, a new format).
 */
export type VanishedSkipped = 'cut-short' | 'unreadable';

export async function importOpenData(
  store: Store,
  path: string,
  opts: OpenDataImportOptions,
): Promise<{ result: ImportResult; stats: ReadStats; vanishedSkipped?: VanishedSkipped }> {
  const includePersons = opts.includePersons ?? false;
  // One import of a source at a time on a register: two weeks' files at once would interleave
  // their writes, and which week the register ends at would be chance.
  return store.exclusively(`import.${opts.source}`, () => importAlone(store, path, opts, includePersons), () => opts.onWait?.('same-source'));
}

async function importAlone(
  store: Store,
  path: string,
  opts: OpenDataImportOptions,
  includePersons: boolean,
): Promise<{ result: ImportResult; stats: ReadStats; vanishedSkipped?: VanishedSkipped }> {
  const edition = await claimEdition(store, opts.source, path, opts.allowOlder ?? false, opts.onUndated);
  let batches = 0;
  try {
    const imported = await importClaimed(store, path, { ...opts, onProgress: (p) => (batches++, opts.onProgress?.(p)) }, includePersons);
    // A file that was mostly unreadable (a new format?) was not taken as the source's week.
    if (imported.stats.records === 0 || imported.stats.errors > imported.stats.records) await giveBackEdition(store, edition);
    return imported;
  } catch (e) {
    // Given back when the import changed nothing: all or nothing (--strict), the file refused at
    // its first line, or stopped before a batch. One stopped half-way keeps it: part of this
    // week is in, and an older file would roll that part back.
    const changedNothing = opts.strict || batches === 0 || (e instanceof ImportError && e.line <= 1);
    if (changedNothing) await giveBackEdition(store, edition).catch(() => undefined);
    throw e;
  }
}

async function importClaimed(
  store: Store,
  path: string,
  opts: OpenDataImportOptions,
  includePersons: boolean,
): Promise<{ result: ImportResult; stats: ReadStats; vanishedSkipped?: VanishedSkipped }> {
  const text = await readLinesAhead(path, { source: opts.source, includePersons, batchSize: opts.batchSize ?? IMPORT_BATCH_SIZE });
  const stats: ReadStats = { lines: 0, records: 0, persons: 0, errors: 0, errorsWithKey: 0 };
  const onError = opts.onError ?? (() => {});
  // The file's last line, without its line break, could not be read: the file was cut there.
  let cutShort = false;
  const readOptions = {
    includePersons,
    strict: opts.strict ?? false,
    onError: (line: number, message: string, lineText: string) => {
      if (line === stats.unterminatedLine) cutShort = true;
      onError(line, message, lineText);
    },
  };
  let vanishedSkipped: VanishedSkipped | undefined;
  const records = readSourceRecords(opts.source, text.batches, stats, readOptions, text.giveBack);
  let result: ImportResult;
  try {
    result = await store.companies.importRecords(records, checkedPlanner(stats, readOptions), {
      // --strict: all or nothing, so a bad line leaves the register as it was.
      atomic: opts.strict ?? false,
      batchSize: opts.batchSize,
      firstLoadOf: SOURCE_BITS[opts.source],
      firstLoadWrites: FIRST_LOAD_WRITES[opts.source],
      fingerprints: opts.source === 'bolagsverket' ? 'bolagsverket_hash' : 'scb_hash',
      firstLineStands: true,
      vanished: {
        sourceBit: SOURCE_BITS[opts.source],
        // Left out unread, a sole trader an earlier import took (--include-persons) is still listed.
        plan: planVanished(opts.source, { spareSoleTraders: !includePersons }),
        spare: includePersons ? undefined : isPersonalNumber,
        // A file cut short, or largely unreadable (the wrong file), must not mark the register as gone.
        enabled: () => {
          if (cutShort) vanishedSkipped = 'cut-short';
          else if (stats.records === 0 || stats.errors > Math.max(100, stats.lines * 0.01)) vanishedSkipped = 'unreadable';
          return vanishedSkipped === undefined;
        },
        limit: opts.markAllVanished ? undefined : vanishedLimit,
      },
      onBatch: () => opts.onProgress?.({ lines: stats.lines, bytes: text.bytesRead(), totalBytes: text.totalBytes }),
      onIndexes: opts.onIndexes,
      onWait: opts.onWait,
    });
  } finally {
    // The reading thread stopped whatever happened (a store that failed before reading a line, too).
    await text.close();
  }
  stats.repeatedLines = (stats.repeatedLines ?? 0) + (result.repeated ?? 0);
  // Those lines reached the register only to be seen, not as records.
  result.unchanged -= stats.errorsWithKey + (stats.personsWithKey ?? 0) + (stats.repeatedLines ?? 0);
  return { result, stats, ...(vanishedSkipped ? { vanishedSkipped } : {}) };
}
