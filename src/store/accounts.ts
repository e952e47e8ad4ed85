import type { Plan, Scope } from '../core/values.js';

export interface Account {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
}

export interface ApiKey {
  id: string;
  account_id: string;
  /** The first characters of the key, safe to show (`bk_live_ab12…`). */
  prefix: string;
  scopes: Scope[];
  created_at: string;
  revoked_at: string | null;
}

export interface AccountRepository {
  createAccount(name: string, plan: Plan): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  findAccountByName(name: string): Promise<Account | null>;
  /** Stores only `keyHash` (sha256 of the key). */
  createKey(accountId: string, keyHash: string, prefix: string, scopes: Scope[]): Promise<ApiKey>;
  findKeyByHash(keyHash: string): Promise<(ApiKey & { account: Account }) | null>;
  listKeys(accountId?: string): Promise<ApiKey[]>;
  /** Revokes by key id or prefix; returns whether one was revoked. */
  revokeKey(idOrPrefix: string): Promise<boolean>;
  countAccounts(): Promise<number>;
}
