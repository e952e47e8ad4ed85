// PostgreSQL for tests: DATABASE_URL names the server; every store a test opens lives in a fresh
// schema of its own (bolag_test_<random>), dropped when the store is closed, so test files run in
// parallel on one database and leave nothing behind.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach } from 'vitest';
import { openPgStore, type PgStore } from '../../src/store/postgres/pg-store.js';

export const DATABASE_URL = process.env.DATABASE_URL ?? '';

/** Why PostgreSQL tests do not run here, for their skip message. */
export const PG_SKIP_REASON = 'skipped: set DATABASE_URL=postgres://… to run this against PostgreSQL (.ci/run does)';

/** A URL for a new, empty schema on the test server (created by the store's migrations). */
export function freshSchemaUrl(base = DATABASE_URL): { url: string; schema: string } {
  const schema = `bolag_test_${randomBytes(6).toString('hex')}`;
  const u = new URL(base);
  u.searchParams.set('schema', schema);
  return { url: u.toString(), schema };
}

export async function dropSchema(schema: string, base = DATABASE_URL): Promise<void> {
  const u = new URL(base);
  u.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** A migrated store in a fresh schema; closing it drops the schema. */
export async function openFreshPgStore(): Promise<PgStore> {
  const { url, schema } = freshSchemaUrl();
  const store = await openPgStore(url);
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await dropSchema(schema);
  };
  return store;
}

/**
 * For a suite whose tests open a store in a fresh schema and open it again (a migration that
 * runs at the next open): `freshUrl()` makes the test's schema; `open` and `reopen` keep the
 * store that is open, which is closed, and its schema dropped, after each test.
 */
export function storePerTest(): { freshUrl(): string; open(url: string): Promise<PgStore>; reopen(url: string): Promise<PgStore> } {
  let schema = '';
  let store: PgStore | null = null;
  afterEach(async () => {
    await store?.close();
    store = null;
    if (schema) await dropSchema(schema);
    schema = '';
  });
  const open = async (url: string) => (store = await openPgStore(url));
  return {
    freshUrl() {
      const fresh = freshSchemaUrl();
      schema = fresh.schema;
      return fresh.url;
    },
    open,
    async reopen(url: string) {
      await store?.close();
      store = null;
      return open(url);
    },
  };
}
