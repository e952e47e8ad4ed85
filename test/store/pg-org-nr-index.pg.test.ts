// PostgreSQL's org nr index (company migration 6): one unique index on the org nr that carries the
// rowid and both fingerprints, in place of three that led with the org nr, and no index on the
// id (a company is read by the rowid its id names). Every write that is not HOT put an entry in
// each of them. A register made before the migration is moved onto it when a store opens it.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { seedRegister } from '../../src/app/seed-register.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { DATABASE_URL, PG_SKIP_REASON, storePerTest } from '../helpers/pg.js';

const ORG_NR_DEF = /^CREATE UNIQUE INDEX companies_org_nr ON \S+\.companies USING btree \(org_nr\) INCLUDE \(rowid, bolagsverket_hash, scb_hash\)$/;
const RETIRED = ['companies_id', 'companies_org_rowid', 'companies_fingerprints', 'companies_org_nr_covering'];

async function indexDefs(store: PgStore): Promise<Map<string, string>> {
  const { rows } = await store.db.query<{ indexname: string; indexdef: string }>(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'companies'",
  );
  return new Map(rows.map((r) => [r.indexname, r.indexdef]));
}

if (!DATABASE_URL) {
  describe('PostgreSQL org nr index', () => it.skip(PG_SKIP_REASON, () => {}));
} else {
  describe('PostgreSQL org nr index (company migration 6)', () => {
    const stores = storePerTest();

    it('a new register has one org nr index, unique, carrying the rowid and both fingerprints, and none on the id', async () => {
      const s = await stores.open(stores.freshUrl());
      await seedRegister(s, { count: 200, seed: 'org-nr-index' });
      const defs = await indexDefs(s);
      expect(defs.get('companies_org_nr')).toMatch(ORG_NR_DEF);
      for (const name of RETIRED) expect(defs.has(name), name).toBe(false);
      expect([...defs.values()].filter((d) => /btree \(org_nr\b/.test(d))).toHaveLength(1);
    });

    it('a register made before is moved onto it at open, and the org nr stays unique', { timeout: 60_000 }, async () => {
      const url = stores.freshUrl();
      let s = await stores.open(url);
      await seedRegister(s, { count: 200, seed: 'org-nr-index-upgrade' });
      // The indexes as migrations 1–5 left them.
      await s.db.query(`
        DROP INDEX companies_org_nr;
        CREATE UNIQUE INDEX companies_id ON companies (id);
        CREATE UNIQUE INDEX companies_org_nr ON companies (org_nr);
        CREATE INDEX companies_org_rowid ON companies (org_nr, rowid);
        CREATE INDEX companies_fingerprints ON companies (org_nr) INCLUDE (bolagsverket_hash, scb_hash);
        DELETE FROM schema_migrations WHERE version = 6;
      `);
      s = await stores.reopen(url);
      const defs = await indexDefs(s);
      expect(defs.get('companies_org_nr')).toMatch(ORG_NR_DEF);
      for (const name of RETIRED) expect(defs.has(name), name).toBe(false);
      const some = (await s.companies.get('c_0000007'))!;
      expect((await s.companies.get(some.org_nr))?.id).toBe('c_0000007');
      const dup = await s.db
        .query('UPDATE companies SET org_nr = (SELECT org_nr FROM companies WHERE rowid = 7) WHERE rowid = 8')
        .then(() => null, (e: pg.DatabaseError) => e);
      expect(dup?.code).toBe('23505');
      expect(dup?.constraint).toBe('companies_org_nr');
    });
  });
}
