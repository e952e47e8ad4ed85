import { existsSync } from 'node:fs';
import { importFile } from '../../../import/import-file.js';
import { ImportError } from '../../../import/import-error.js';
import { UsageError } from '../../errors/index.js';
import type { DbImportOptions } from './options.js';
import { openDbStore } from './open.js';

export async function dbImportRun(opts: DbImportOptions): Promise<void> {
  if (!existsSync(opts.file)) throw new UsageError(`No such file: ${opts.file}`, { flag: '<file>' });
  const { store } = await openDbStore(opts);
  try {
    const r = await importFile(store, opts.file);
    const events = Object.entries(r.events).map(([type, n]) => `${n} ${type}`).join(', ') || 'none';
    opts.factory.io.stdout.write(`${JSON.stringify({ created: r.created, updated: r.updated, unchanged: r.unchanged, events: r.events })}\n`);
    opts.factory.notice(`Imported ${opts.file}: ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged; events: ${events}.`);
  } catch (e) {
    if (e instanceof ImportError) throw new UsageError(`Import stopped at ${e.message}; nothing was changed.`);
    throw e;
  }
}
