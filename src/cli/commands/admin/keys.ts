import { hashKey, issueKey } from '../../../server/api-keys.js';
import { openStore } from '../../../store/open-store.js';
import type { Store } from '../../../store/store.js';
import { NotFoundError, UsageError } from '../../errors/index.js';
import type { Factory } from '../../factory.js';
import { refuseMissingRegister } from '../db/open.js';
import type { AdminKeysCreateOptions } from './options.js';

/** The register the keys are in: one that is there (a mistyped --db made an empty one, and a key no server knows). */
async function open(factory: Factory): Promise<Store> {
  const target = await factory.storeTarget();
  refuseMissingRegister(target);
  const store = await openStore(target.location);
  factory.defer(() => store.close());
  return store;
}

export async function adminKeysCreateRun(opts: AdminKeysCreateOptions): Promise<void> {
  const store = await open(opts.factory);
  // --plan is the plan of a new account; asked for an existing one on another plan, it would be
  // ignored without a word.
  const existing = await store.accounts.findAccountByName(opts.account);
  if (existing && opts.planGiven && existing.plan !== opts.plan) {
    throw new UsageError(`Account "${existing.name}" exists on plan ${existing.plan}; --plan sets the plan of a new account only.`, { flag: '--plan' });
  }
  const { key, record, account } = await issueKey(store, { account: opts.account, plan: opts.plan, scopes: opts.scopes });
  opts.factory.notice(`Created key ${record.id} for account "${account.name}" (plan ${account.plan}; scopes ${record.scopes.join(', ')}). It is shown only now:`);
  opts.factory.io.stdout.write(`${key}\n`);
}

export async function adminKeysListRun(opts: { factory: Factory; account?: string }): Promise<void> {
  const store = await open(opts.factory);
  let accountId: string | undefined;
  if (opts.account) {
    const account = await store.accounts.findAccountByName(opts.account);
    if (!account) throw notFound(`No account named "${opts.account}".`);
    accountId = account.id;
  }
  for (const k of await store.accounts.listKeys(accountId)) {
    opts.factory.io.stdout.write(`${JSON.stringify(k)}\n`);
  }
}

export async function adminKeysRevokeRun(opts: { factory: Factory; key: string }): Promise<void> {
  const store = await open(opts.factory);
  let revoked = await store.accounts.revokeKey(opts.key);
  if (!revoked && opts.key.startsWith('bk_')) {
    const found = await store.accounts.findKeyByHash(hashKey(opts.key));
    if (found) revoked = await store.accounts.revokeKey(found.id);
  }
  // A whole key is named by its prefix only: error lines land in CI logs and scrollback, and a
  // key of another environment is live there.
  const named = opts.key.startsWith('bk_') && opts.key.length > KEY_SHOWN ? `${opts.key.slice(0, KEY_SHOWN)}…` : opts.key;
  if (!revoked) throw notFound(`No active key matches "${named}".`);
  opts.factory.notice('Revoked.');
}

/** Characters of a key an error shows: its prefix, as `admin keys list` shows it. */
const KEY_SHOWN = 11;

/** Not an HTTP error, but the same outcome and exit code as a 404. */
function notFound(message: string): NotFoundError {
  return new NotFoundError(message, { method: 'LOCAL', path: 'admin keys', status: 404, code: 'not_found' });
}
