import type { Plan, Scope } from '../../core/values.js';
import { newId } from '../../core/ids.js';
import type { Account, AccountRepository, ApiKey } from '../accounts.js';
import type { PgDb } from './database.js';

const KEY_COLUMNS = 'id, account_id, prefix, scopes, created_at, revoked_at';

export class PgAccountRepository implements AccountRepository {
  constructor(private readonly db: PgDb) {}

  async createAccount(name: string, plan: Plan): Promise<Account> {
    const account: Account = { id: newId('acct'), name, plan, created_at: new Date().toISOString() };
    await this.db.query('INSERT INTO accounts (id, name, plan, created_at) VALUES ($1, $2, $3, $4)', [account.id, name, plan, account.created_at]);
    return account;
  }

  async getAccount(id: string): Promise<Account | null> {
    return (await this.db.query<Account>('SELECT id, name, plan, created_at FROM accounts WHERE id = $1', [id])).rows[0] ?? null;
  }

  async findAccountByName(name: string): Promise<Account | null> {
    return (await this.db.query<Account>('SELECT id, name, plan, created_at FROM accounts WHERE name = $1', [name])).rows[0] ?? null;
  }

  async createKey(accountId: string, keyHash: string, prefix: string, scopes: Scope[]): Promise<ApiKey> {
    const key: ApiKey = { id: newId('key'), account_id: accountId, prefix, scopes, created_at: new Date().toISOString(), revoked_at: null };
    await this.db.query('INSERT INTO api_keys (id, account_id, key_hash, prefix, scopes, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      key.id,
      accountId,
      keyHash,
      prefix,
      JSON.stringify(scopes),
      key.created_at,
    ]);
    return key;
  }

  async findKeyByHash(keyHash: string): Promise<(ApiKey & { account: Account }) | null> {
    const r = await this.db.query<ApiKey & { a_name: string; a_plan: Plan; a_created_at: string }>(
      `SELECT k.id, k.account_id, k.prefix, k.scopes, k.created_at, k.revoked_at,
              a.name AS a_name, a.plan AS a_plan, a.created_at AS a_created_at
       FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1`,
      [keyHash],
    );
    const row = r.rows[0];
    if (!row) return null;
    const { a_name, a_plan, a_created_at, ...key } = row;
    return { ...key, account: { id: key.account_id, name: a_name, plan: a_plan, created_at: a_created_at } };
  }

  async listKeys(accountId?: string): Promise<ApiKey[]> {
    const r = accountId
      ? await this.db.query<ApiKey>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY created_at, id`, [accountId])
      : await this.db.query<ApiKey>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`);
    return r.rows;
  }

  async revokeKey(idOrPrefix: string): Promise<boolean> {
    const r = await this.db.query('UPDATE api_keys SET revoked_at = $1 WHERE (id = $2 OR prefix = $2) AND revoked_at IS NULL', [new Date().toISOString(), idOrPrefix]);
    return (r.rowCount ?? 0) > 0;
  }

  async countAccounts(): Promise<number> {
    return (await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts')).rows[0].n;
  }
}
