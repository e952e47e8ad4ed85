// After a seed or an import's first load, the indexes the index thread built are copied in
// (bulk/side-tables.ts). Copied on the store's own connection, the full-text index kept its
// cached structure on that connection and the first full-text write there failed at its commit
// (SQLITE_CONSTRAINT_PRIMARYKEY): a seed followed by an import in one process. Through the
// compiled index thread.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { SEARCH_QUERY_SCHEMA, toSearchQuery } from '../../src/core/search-params.js';
import { ensureBuilt, ROOT } from '../exports/built.js';

let dist: {
  openSqliteStore: typeof import('../../src/store/sqlite/sqlite-store.js').openSqliteStore;
  seedRegister: typeof import('../../src/app/seed-register.js').seedRegister;
  importFile: typeof import('../../src/import/import-file.js').importFile;
};

beforeAll(async () => {
  await ensureBuilt();
  dist = {
    ...((await import(join(ROOT, 'dist/src/store/sqlite/sqlite-store.js'))) as Pick<typeof dist, 'openSqliteStore'>),
    ...((await import(join(ROOT, 'dist/src/app/seed-register.js'))) as Pick<typeof dist, 'seedRegister'>),
    ...((await import(join(ROOT, 'dist/src/import/import-file.js'))) as Pick<typeof dist, 'importFile'>),
  };
});

it('imports a new company on the connection that seeded the register, and finds it by name', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bolag-side-fts-'));
  const store = dist.openSqliteStore(join(dir, 'register.db'));
  try {
    await dist.seedRegister(store, { count: 300, seed: 'side-fts' });
    const [first] = await store.companies.slice({ status: null, radius_km: 10 }, 0, 1);
    const fresh = { ...first, id: undefined, org_nr: '556036-0793', name: 'Ödmjukt Nybolag AB' };
    const path = join(dir, 'new.jsonl');
    writeFileSync(path, `${JSON.stringify(fresh)}\n`);
    expect(await dist.importFile(store, path)).toMatchObject({ created: 1 });
    const page = await store.companies.search(toSearchQuery(SEARCH_QUERY_SCHEMA.parse({ q: 'Ödmjukt Nybolag' })), null);
    expect(page.rows.map((c) => c.name)).toContain('Ödmjukt Nybolag AB');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
