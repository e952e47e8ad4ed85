import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { storeContract } from './store-contract.js';

storeContract('SQLite', async () => openSqliteStore(join(mkdtempSync(join(tmpdir(), 'bolag-store-')), 'store.db')));

describe('Store contract: PostgreSQL', () => {
  it.skip(
    process.env.DATABASE_URL
      ? 'skipped: the PostgreSQL store (src/store/postgres) is the next step; this suite will run against DATABASE_URL then'
      : 'skipped: set DATABASE_URL (and implement src/store/postgres) to run the store contract against PostgreSQL',
    () => {},
  );
});
