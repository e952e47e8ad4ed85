// Which database the HTTP tests run on: SQLite by default; PostgreSQL when BOLAG_TEST_STORE is
// `postgres` (the `postgres` project of test/vitest.config.ts sets it when DATABASE_URL is set).
// On PostgreSQL each test server gets a fresh schema, dropped when the test is done with it.
import { join } from 'node:path';
import { dropSchema, freshSchemaUrl } from './pg.js';

export type TestStoreKind = 'sqlite' | 'postgres';

export const TEST_STORE: TestStoreKind = process.env.BOLAG_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  kind: TestStoreKind;
  /** Spread into startServer / openStore options. */
  location: { dbPath: string } | { databaseUrl: string };
  drop(): Promise<void>;
}

/** A new, empty database for one test server: a file in `dir`, or a fresh PostgreSQL schema. */
export function testDatabase(dir: string, file = 'register.db'): TestDatabase {
  if (TEST_STORE === 'postgres') {
    const { url, schema } = freshSchemaUrl();
    return { kind: 'postgres', location: { databaseUrl: url }, drop: () => dropSchema(schema) };
  }
  return { kind: 'sqlite', location: { dbPath: join(dir, file) }, drop: async () => undefined };
}
