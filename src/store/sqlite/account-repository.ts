import type { Plan, Scope } from '../../core/values.js';
import { newId } from '../../core/ids.js';
import type { Account, AccountRepository, ApiKey } from '../accounts.js';
import type { Db } from './database.js';

interface KeyRow {
  id: string;
  account_id: string;
  prefix: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

const toKey = (r: KeyRow): ApiKey => ({ ...r, scopes: JSON.parse(r.scopes) as Scope[] });

export class SqliteAccountRepository implements AccountRepository {
  constructor(private readonly db: Db) {}

  async createAccount(name: string, plan: Plan): Promise<Account> {
    const account: Account = { id: newId('acct'), name, plan, created_at: new Date().toISOString() };
    this.db.prepare('INSERT INTO accounts (id, name, plan, created_at) VALUES (@id, @name, @plan, @created_at)').run(account);
    return account;
  }

  async getAccount(id: string): Promise<Account | null> {
    return (this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as Account | undefined) ?? null;
  }

  async findAccountByName(name: string): Promise<Account | null> {
    return (this.db.prepare('SELECT * FROM accounts WHERE name = ?').get(name) as Account | undefined) ?? null;
  }

  async createKey(accountId: string, keyHash: string, prefix: string, scopes: Scope[]): Promise<ApiKey> {
    const key = { id: newId('key'), account_id: accountId, key_hash: keyHash, prefix, scopes: JSON.stringify(scopes), created_at: new Date().toISOString() };
    this.db
      .prepare('INSERT INTO api_keys (id, account_id, key_hash, prefix, scopes, created_at) VALUES (@id, @account_id, @key_hash, @prefix, @scopes, @created_at)')
      .run(key);
    return { id: key.id, account_id: accountId, prefix, scopes, created_at: key.created_at, revoked_at: null };
  }

  async findKeyByHash(keyHash: string): Promise<(ApiKey & { account: Account }) | null> {
    const row = this.db
      .prepare(
        `SELECT k.id, k.account_id, k.prefix, k.scopes, k.created_at, k.revoked_at,
                a.name AS a_name, a.plan AS a_plan, a.created_at AS a_created_at
         FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ?`,
      )
      .get(keyHash) as (KeyRow & { a_name: string; a_plan: Plan; a_created_at: string }) | undefined;
    if (!row) return null;
    return { ...toKey(row), account: { id: row.account_id, name: row.a_name, plan: row.a_plan, created_at: row.a_created_at } };
  }

  async listKeys(accountId?: string): Promise<ApiKey[]> {
    const cols = 'id, account_id, prefix, scopes, created_at, revoked_at';
    const rows = accountId
      ? this.db.prepare(`SELECT ${cols} FROM api_keys WHERE account_id = ? ORDER BY created_at`).all(accountId)
      : this.db.prepare(`SELECT ${cols} FROM api_keys ORDER BY created_at`).all();
    return (rows as KeyRow[]).map(toKey);
  }

  async revokeKey(idOrPrefix: string): Promise<boolean> {
    const r = this.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE (id = ? OR prefix = ?) AND revoked_at IS NULL')
      .run(new Date().toISOString(), idOrPrefix, idOrPrefix);
    return r.changes > 0;
  }

  async countAccounts(): Promise<number> {
    return this.db.prepare('SELECT count(*) FROM accounts').pluck().get() as number;
  }
}
