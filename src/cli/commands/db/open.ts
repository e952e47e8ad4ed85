import { existsSync } from 'node:fs';
import { openStore } from '../../../store/open-store.js';
import type { Store } from '../../../store/store.js';
import { UsageError } from '../../errors/index.js';
import type { DbOptions } from './options.js';
import type { StoreTarget } from '../../store-target.js';

/**
 * The store the db commands work on; closed when the command ends. `existing`: a SQLite file
 * that is not there is an error, not a new empty register (`db stats` on a mistyped --db).
 */
export async function openDbStore(opts: DbOptions, { existing = false } = {}): Promise<{ store: Store; path: string }> {
  const target = await opts.factory.storeTarget();
  if (existing) refuseMissingRegister(target);
  const store = await openStore(target.location);
  opts.factory.defer(() => store.close());
  return { store, path: target.label };
}

/** A SQLite register that is not there: an error, before anything creates it (a mistyped --db). */
export function refuseMissingRegister(target: StoreTarget): void {
  const file = target.location.dbPath;
  if (file !== undefined && file !== ':memory:' && !existsSync(file)) {
    throw new UsageError(`No register at ${file}.`, { flag: '--db', hint: 'check --db, or create one with bolag db seed or bolag serve' });
  }
}
