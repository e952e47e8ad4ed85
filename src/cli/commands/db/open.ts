import { existsSync } from 'node:fs';
import { openStore } from '../../../store/open-store.js';
import type { Store } from '../../../store/store.js';
import { UsageError } from '../../errors/index.js';
import type { DbOptions } from './options.js';

/**
 * The store the db commands work on; closed when the command ends. `existing`: a SQLite file
 * that is not there is an error, not a new empty register (`db stats` on a mistyped --db).
 */
export async function openDbStore(opts: DbOptions, { existing = false } = {}): Promise<{ store: Store; path: string }> {
  const target = await opts.factory.storeTarget();
  const file = target.location.dbPath;
  if (existing && file !== undefined && file !== ':memory:' && !existsSync(file)) {
    throw new UsageError(`No register at ${file}.`, { flag: '--db', hint: 'check --db, or create one with bolag db seed or bolag serve' });
  }
  const store = await openStore(target.location);
  opts.factory.defer(() => store.close());
  return { store, path: target.label };
}
