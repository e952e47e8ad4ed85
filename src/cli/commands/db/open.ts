import { registerDbPath } from '../../../local/paths.js';
import { openStore } from '../../../store/open-store.js';
import type { Store } from '../../../store/store.js';
import type { DbOptions } from './options.js';

/** The store the db commands work on; closed when the command ends. */
export async function openDbStore(opts: DbOptions): Promise<{ store: Store; path: string }> {
  const path = opts.dbPath ?? registerDbPath(opts.factory.env);
  const store = await openStore({ dbPath: path });
  opts.factory.defer(() => store.close());
  return { store, path };
}
