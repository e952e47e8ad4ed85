// First start on an empty database: create the register and a local account with a key
// that can do everything, so a newcomer has something to search at once.
import { SCOPES } from '../core/values.js';
import { seedingCutShort, seedRegister, wasImported } from '../app/seed-register.js';
import type { Store } from '../store/store.js';
import { issueKey } from './api-keys.js';

export interface BootstrapResult {
  seeded: number;
  /** Only when this start created the local account; shown once, never stored in clear by the server. */
  apiKey?: string;
}

export async function bootstrap(
  store: Store,
  opts: {
    seedCount?: number;
    onProgress?: (done: number, total: number, phase: 'rows' | 'indexes') => void;
    /** Called when another process holds the first start (creating the register) and this one waits. */
    onWait?: () => void;
  },
): Promise<BootstrapResult> {
  // Replicas starting at once on an empty database: one creates the register and the account,
  // the others wait for it and find them there.
  return store.exclusively('bootstrap', () => firstStart(store, opts), opts.onWait);
}

async function firstStart(
  store: Store,
  opts: { seedCount?: number; onProgress?: (done: number, total: number, phase: 'rows' | 'indexes') => void },
): Promise<BootstrapResult> {
  const result: BootstrapResult = { seeded: 0 };
  // lastRow, not stats(): stats counts by scanning the whole register, which on a large one
  // costs seconds at every start and leaves the scanned pages resident.
  // Under the lock, so a register still being created by a live process is not taken for one
  // cut short: only one whose creator stopped before the end. An empty register an import
  // created (the import failed, or was stopped before its first commit) stays empty.
  if (!(await wasImported(store)) && ((await store.companies.lastRow()) === 0 || (await seedingCutShort(store)))) {
    result.seeded = await seedRegister(store, { count: opts.seedCount, onProgress: opts.onProgress });
  }
  if ((await store.accounts.countAccounts()) === 0) {
    const { key } = await issueKey(store, { account: 'local', plan: 'pro', scopes: [...SCOPES] });
    result.apiKey = key;
  }
  return result;
}
