import { existsSync, statSync } from 'node:fs';
import { importFile } from '../../../import/import-file.js';
import { ImportError } from '../../../import/import-error.js';
import { importOpenData, type VanishedSkipped } from '../../../import/import-open-data.js';
import { OlderFileError } from '../../../import/open-data/edition-guard.js';
import { isDamagedFile } from '../../../import/source/zip-entry.js';
import type { ReadStats } from '../../../import/open-data/read-source.js';
import { markImportedIfEmpty, seedingCutShort, unmarkImported } from '../../../app/seed-register.js';
import type { ImportResult, ImportWait } from '../../../store/import-types.js';
import { CancelError, CliError, UsageError } from '../../errors/index.js';
import { ImportErrorLog } from './import-errors.js';
import { importProgress } from './import-progress.js';
import type { DbImportOptions } from './options.js';
import { openDbStore } from './open.js';

/** An import waits while another process's first load builds the register's indexes alone (SQLite). */
export const FIRST_LOAD_WAIT = "Another import is loading this register for the first time; waiting until it has built the indexes…";
export const WRITE_LOCK_WAIT = 'Another process is writing this register in one long transaction (an import, say); waiting for it to finish…';
export const SAME_SOURCE_WAIT = "Another import of this source's file is running on this register; waiting for it to finish…";

export async function dbImportRun(opts: DbImportOptions): Promise<void> {
  if (!existsSync(opts.file)) throw new UsageError(`No such file: ${opts.file}`, { flag: '<file>' });
  // A zip is read from its end and a text file by a thread of its own, from offsets: a pipe
  // (`curl … | bolag db import /dev/stdin`) failed with "ESPIPE: invalid seek".
  if (!statSync(opts.file).isFile()) {
    throw new UsageError(`${opts.file} is not a regular file: save the download to a file first (an import reads it from offsets, which a pipe or folder has not).`, { flag: '<file>' });
  }
  const source = opts.source ?? 'ours';
  // Opened first: a path that cannot be written stops the command before the register is touched.
  const register = (await opts.factory.storeTarget()).location.dbPath;
  const kept = { file: opts.file, register: register === ':memory:' ? undefined : register };
  const openData = source === 'ours' ? null : { source, errors: new ImportErrorLog(opts.errorsFile, kept) };
  const { store } = await openDbStore(opts);
  const { io } = opts.factory;
  if (await seedingCutShort(store)) {
    // A first start would create it again, deleting what this import brings.
    throw new UsageError(
      'This register holds part of a generated register whose creation was stopped (or is under way); import into an empty one (a new --db file, or another PostgreSQL schema).',
    );
  }
  // Before any row, in its own commit: whatever becomes of this import, no first start seeds this register.
  const marked = await markImportedIfEmpty(store, source);
  // Whether the file got as far as its lines: one that fails after that (the database gone, say)
  // failed as an import, and leaves the register to imports.
  let linesRead = false;
  // Ctrl-C: the import stops after the batch it is on, and that batch's transaction is rolled back.
  const stopIfInterrupted = () => {
    if (!opts.factory.interrupt.aborted) return;
    throw new CancelError(
      source === 'ours' || opts.strict
        ? 'Interrupted; nothing was changed.'
        : 'Interrupted. What was imported before stays; run the same import again to finish it (the lines already in are skipped).',
    );
  };
  try {
    if (openData === null) {
      const progress = importProgress(io, 'Importing');
      try {
        const r = await importFile(store, opts.file, {
          onProgress: (lines) => {
            if (lines > 0) linesRead = true;
            stopIfInterrupted();
            progress.update({ lines });
          },
          onWait: (why) => waiting(opts, progress, why),
        });
        progress.done();
        report(opts, r, {});
      } finally {
        progress.done();
      }
      return;
    }
    const { errors } = openData;
    const progress = importProgress(io, `Importing ${source}`);
    try {
      const { result, stats, vanishedSkipped } = await importOpenData(store, opts.file, {
        source: openData.source,
        includePersons: opts.includePersons,
        strict: opts.strict,
        markAllVanished: opts.markAllVanished,
        allowOlder: opts.allowOlder,
        onUndated: (newest) =>
          io.stderr.write(
            `Warning: ${opts.file} tells no date (neither its name nor a zip gives one, or the one it gives is past tomorrow), so it cannot be checked against the newest week this register took (the ${newest.toISOString().slice(0, 16).replace('T', ' ')} UTC file): an older week would roll the changes since back. Import the zip to have it checked.\n`,
          ),
        onError: (line, message, text) => errors.add(line, message, text),
        onProgress: (p) => {
          if (p.lines > 0) linesRead = true;
          stopIfInterrupted();
          progress.update(p);
        },
        onIndexes: (done, total) => progress.indexes(done, total),
        onWait: (why) => waiting(opts, progress, why),
      });
      progress.done();
      const extra: Record<string, number> = { rows: stats.lines, persons_left_out: stats.persons, unreadable_lines: stats.errors, repeated_lines: stats.repeatedLines ?? 0, vanished: result.vanished ?? 0 };
      if (result.vanishedWithheld) extra.vanished_not_marked = result.vanishedWithheld;
      report(opts, result, extra);
      if (vanishedSkipped && vanishedSkipped !== 'cut-short') io.stderr.write(`Warning: ${VANISHED_SKIPPED[vanishedSkipped](stats)}\n`);
      if (result.vanishedWithheld) {
        io.stderr.write(
          `Warning: ${result.vanishedWithheld.toLocaleString('en')} organisations this source listed before are not in the file; none was marked as vanished, ` +
            `as that is more than one import marks unless told (a file cut short?). Re-run with --mark-all-vanished to mark them.\n`,
        );
      }
      // Exit 0 would tell a cron job that the register is this week's.
      if (stats.lines === 0) throw new UsageError(`${opts.file} has no ${source === 'scb' ? "SCB" : "Bolagsverket"} lines after its header; nothing was imported.`);
      if (stats.errors > stats.records) throw new UsageError(mostUnreadable(opts.file, stats));
      // Not this week's register either: what the file held is in, what it lost is not known.
      if (vanishedSkipped === 'cut-short') throw new CliError(VANISHED_SKIPPED['cut-short'](stats));
    } finally {
      progress.done();
      await errors.close();
      // Under --strict the first unreadable line stops the import, and the error says which.
      if (!opts.strict) for (const line of errors.summary()) io.stderr.write(`${line}\n`);
    }
  } catch (e) {
    // A file refused as a whole (at its first line, a zip that cannot be read, no usable lines):
    // not an imported register, so a first start may still generate it (only an empty one is
    // unmarked). A line further on that stops the import (--strict), or a failure once lines
    // were read (a damaged zip entry, found at its end), leaves the mark: the register is meant
    // for imports, and a first start filled it with 1.2 million generated companies.
    const refusedWhole = e instanceof ImportError ? e.line <= 1 : !(e instanceof CancelError) && !linesRead && !isDamagedFile(e);
    if (marked && refusedWhole) await unmarkImported(store).catch(() => undefined);
    if (e instanceof OlderFileError) {
      throw new UsageError(
        `${opts.file}: ${e.message}; importing it would roll back every change since and send each as a webhook. Nothing was changed. If that is what you mean, give --allow-older.`,
        { flag: '--allow-older' },
      );
    }
    if (e instanceof ImportError) {
      const changed = source === 'ours' || opts.strict ? '; nothing was changed' : '';
      // A detail that asks ("is this the right file?") ends as it is.
      throw new UsageError(`Import stopped at ${e.message}${changed}${/[.?!]$/.test(e.message) && !changed ? '' : '.'}`);
    }
    throw e;
  }
}

const VANISHED_SKIPPED: Record<VanishedSkipped, (stats: ReadStats) => string> = {
  'cut-short': (stats) =>
    `The file ends in the middle of line ${stats.unterminatedLine} (no line break, and the line could not be read): it looks cut short. The lines before it were imported, but no organisation it no longer lists was marked as vanished. Download it again and import it whole.`,
  unreadable: (stats) => `${stats.errors.toLocaleString('en')} lines could not be read, so no organisation the file no longer lists was marked as vanished.`,
};

/** More lines of the file unreadable than read: a new format of the file, most likely. */
function mostUnreadable(file: string, stats: ReadStats): string {
  const [errors, records] = [stats.errors, stats.records].map((n) => n.toLocaleString('en'));
  return stats.records === 0
    ? `None of the ${errors} lines of ${file} could be read (a new format of the file?); nothing was imported.`
    : `${errors} of the ${(stats.errors + stats.records).toLocaleString('en')} lines of ${file} could not be read (a new format of the file?); the ${records} others were imported.`;
}

function waiting(opts: DbImportOptions, progress: { done(): void }, why: ImportWait): void {
  progress.done();
  opts.factory.notice(why === 'first-load' ? FIRST_LOAD_WAIT : why === 'same-source' ? SAME_SOURCE_WAIT : WRITE_LOCK_WAIT);
}

function report(opts: DbImportOptions, r: ImportResult, extra: Record<string, number>): void {
  const events = Object.entries(r.events).map(([type, n]) => `${n} ${type}`).join(', ') || 'none';
  opts.factory.io.stdout.write(`${JSON.stringify({ created: r.created, updated: r.updated, unchanged: r.unchanged, ...extra, events: r.events })}\n`);
  const more = Object.entries(extra).map(([k, v]) => `${v} ${k.replaceAll('_', ' ')}`).join(', ');
  opts.factory.notice(`Imported ${opts.file}: ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged${more ? `, ${more}` : ''}; events: ${events}.`);
}
