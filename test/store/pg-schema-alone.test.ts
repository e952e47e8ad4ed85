// A store in a schema of its own looks in that schema alone: while the schema is missing (dropped,
// being restored) its queries fail instead of falling through to public's tables, where another
// store may be (found by a review, 2026-11-29: that store's keys let in, its exports written).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore, type PgStore } from '../../src/store/postgres/pg-store.js';
import { DATABASE_URL, PG_SKIP_REASON } from '../helpers/pg.js';

describe.skipIf(!DATABASE_URL)(`a PostgreSQL store in its own schema ${DATABASE_URL ? '' : PG_SKIP_REASON}`, () => {
  // A database of its own: the test needs a store in its public schema.
  const database = `bolag_schema_alone_${randomBytes(5).toString('hex')}`;
  // Collected without DATABASE_URL too (then skipped): no URL of nothing is made.
  const server = new URL(DATABASE_URL || 'postgres://skipped/none');
  server.searchParams.delete('schema');
  const urlOf = (schema?: string) => {
    const u = new URL(server);
    u.pathname = `/${database}`;
    if (schema) u.searchParams.set('schema', schema);
    return u.toString();
  };
  const admin = async (sql: string, url = server.toString()) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  let inPublic: PgStore;
  let own: PgStore;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    inPublic = await openPgStore(urlOf());
    own = await openPgStore(urlOf('bolag_own'));
  }, 60_000);
  afterAll(async () => {
    await own?.close();
    await inPublic?.close();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it("never reads public's tables when its schema is missing", async () => {
    const account = await inPublic.accounts.createAccount('public-account', 'pro');
    await inPublic.accounts.createKey(account.id, 'hash-of-public-key', 'bk_pub', ['companies:read']);
    expect(await own.accounts.findKeyByHash('hash-of-public-key')).toBeNull();
    await admin('DROP SCHEMA bolag_own CASCADE', urlOf());
    // Its pooled connections and new ones alike: an error, not public's key.
    await expect(own.accounts.findKeyByHash('hash-of-public-key')).rejects.toThrow(/does not exist/);
    expect(await inPublic.accounts.findKeyByHash('hash-of-public-key')).toMatchObject({ account: { name: 'public-account' } });
  });
});
