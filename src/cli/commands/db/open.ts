import { openStore } from '../../../store/open-store.js';
import type { Store } from '../../../store/store.js';
import type { DbOptions } from './options.js';

/** The store the db commands work on; closed when the command ends. */
export async function openDbStore(opts: DbOptions): Promise<{ store: Store; path: string }> {
  const target = await opts.factory.storeTarget();
  const store = await openStore(target.location);
  opts.factory.defer(() => store.close());
  return { store, path: target.label };
}
