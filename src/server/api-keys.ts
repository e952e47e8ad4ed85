// API keys: shown once, stored as a SHA-256 hash. A key has 256 bits of randomness, so a
// fast hash is enough (no password stretching needed), and lookup by hash is exact.
import { createHash, randomBytes } from 'node:crypto';
import type { Plan, Scope } from '../core/values.js';
import type { Store } from '../store/store.js';

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateKey(): { key: string; prefix: string } {
  const key = `bk_${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, 11) };
}

/** Creates a key for the named account, creating the account when it is new. */
export async function issueKey(store: Store, opts: { account: string; plan: Plan; scopes: Scope[] }) {
  const account = (await store.accounts.findAccountByName(opts.account)) ?? (await store.accounts.createAccount(opts.account, opts.plan));
  const { key, prefix } = generateKey();
  const record = await store.accounts.createKey(account.id, hashKey(key), prefix, opts.scopes);
  return { key, record, account };
}
