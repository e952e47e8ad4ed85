// PostgreSQL's `sni` column holds each code's division, class and code (company migration 7,
// src/store/postgres/sni-keys.ts), so that an SNI prefix is one index key, not every code in use
// under it tested against each row. Prefixes of every length find exactly the companies with a
// code that begins with them; a register written before is rewritten when a store opens it.
import { describe, expect, it } from 'vitest';
import { seedRegister } from '../../src/app/seed-register.js';
import { SEARCH_QUERY_SCHEMA, toSearchQuery } from '../../src/core/search-params.js';
import { sniFilterKeys, sniKeys } from '../../src/store/postgres/sni-keys.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import type { KeysetPosition } from '../../src/store/store.js';
import { DATABASE_URL, PG_SKIP_REASON, storePerTest } from '../helpers/pg.js';

describe('SNI index keys', () => {
  it("are each code's division, class and code, once each", () => {
    expect(sniKeys(['43210', '43220', '68203'])).toEqual(['43', '4321', '43210', '4322', '43220', '68', '6820', '68203']);
    expect(sniKeys([])).toEqual([]);
  });

  it('stand for a prefix of any length: itself, or its ten next digits', () => {
    expect(sniFilterKeys(['43'])).toEqual(['43']);
    expect(sniFilterKeys(['4321', '43210'])).toEqual(['4321', '43210']);
    expect(sniFilterKeys(['4'])).toEqual(['40', '41', '42', '43', '44', '45', '46', '47', '48', '49']);
    expect(sniFilterKeys(['432'])).toEqual(['4320', '4321', '4322', '4323', '4324', '4325', '4326', '4327', '4328', '4329']);
    expect(sniFilterKeys(['43', '43'])).toEqual(['43']);
  });
});

async function idsOf(store: PgStore, params: string): Promise<string[]> {
  const query = toSearchQuery(SEARCH_QUERY_SCHEMA.parse(Object.fromEntries(new URLSearchParams(`${params}&status=all&limit=100`))));
  const ids: string[] = [];
  let after: KeysetPosition | null = null;
  do {
    const page = await store.companies.search(query, after);
    ids.push(...page.rows.map((c) => c.id));
    after = page.next;
  } while (after);
  return ids.sort();
}

async function storedCodes(store: PgStore): Promise<{ id: string; codes: string[]; sni: string[] }[]> {
  const { rows } = await store.db.query<{ id: string; sni_codes: string; sni: string[] }>('SELECT id, sni_codes, sni FROM companies ORDER BY rowid');
  return rows.map((r) => ({ id: r.id, codes: r.sni_codes ? r.sni_codes.split(',') : [], sni: r.sni }));
}

/** Every prefix length of a few codes in use, and one that no code has. */
async function expectPrefixesFound(store: PgStore): Promise<void> {
  const all = await storedCodes(store);
  const code = all.find((c) => c.codes.length > 0)!.codes[0];
  const other = all.flatMap((c) => c.codes).find((c) => c.slice(0, 1) !== code.slice(0, 1))!;
  for (const prefix of [1, 2, 3, 4, 5].map((n) => code.slice(0, n))) {
    const expected = all.filter((c) => c.codes.some((k) => k.startsWith(prefix))).map((c) => c.id).sort();
    expect(expected.length, prefix).toBeGreaterThan(0);
    expect(await idsOf(store, `sni=${prefix}`), prefix).toEqual(expected);
  }
  const both = all.filter((c) => c.codes.some((k) => k.startsWith(code.slice(0, 3)) || k.startsWith(other.slice(0, 2)))).map((c) => c.id).sort();
  expect(await idsOf(store, `sni=${code.slice(0, 3)},${other.slice(0, 2)}`)).toEqual(both);
  expect(await idsOf(store, 'sni=00000')).toEqual([]);
}

if (!DATABASE_URL) {
  describe('PostgreSQL SNI keys', () => it.skip(PG_SKIP_REASON, () => {}));
} else {
  describe('PostgreSQL SNI keys (company migration 7)', () => {
    const stores = storePerTest();

    it('a new register keeps the keys of each company\'s codes, and a prefix of any length finds exactly its companies', async () => {
      const store = await stores.open(stores.freshUrl());
      await seedRegister(store, { count: 400, seed: 'sni-keys' });
      for (const c of await storedCodes(store)) expect(c.sni, c.id).toEqual(sniKeys(c.codes));
      await expectPrefixesFound(store);
    });

    it('a register made before is rewritten at open: keys in place, statistics gathered, and the earlier release\'s expansion still finds them', { timeout: 60_000 }, async () => {
      const url = stores.freshUrl();
      let s = await stores.open(url);
      await seedRegister(s, { count: 400, seed: 'sni-keys-upgrade' });
      // The column and the counts as migrations 1–6 left them: the codes alone.
      await s.db.query(`
        UPDATE companies SET sni = CASE WHEN sni_codes = '' THEN '{}'::text[] ELSE string_to_array(sni_codes, ',') END;
        INSERT INTO company_counts (dim, value, status, n)
          SELECT 'sni', code, status, count(*) FROM companies, unnest(sni) AS code GROUP BY code, status;
        DELETE FROM schema_migrations WHERE version = 7;
      `);
      expect((await storedCodes(s)).some((c) => c.sni.length !== sniKeys(c.codes).length)).toBe(true);
      s = await stores.reopen(url);
      for (const c of await storedCodes(s)) expect(c.sni, c.id).toEqual(sniKeys(c.codes));
      // A replica of the earlier release, while the rest are rolled: a prefix as the codes in use.
      const code = (await storedCodes(s)).find((c) => c.codes.length > 0)!.codes[0];
      const earlier = await s.db.query<{ id: string }>(
        `SELECT id FROM companies c WHERE c.sni && ARRAY(SELECT value FROM company_counts WHERE dim = 'sni' AND value >= $1 AND value < $2)::text[] ORDER BY id`,
        [code.slice(0, 2), String(Number(code.slice(0, 2)) + 1).padStart(2, '0')],
      );
      expect(earlier.rows.map((r) => r.id)).toEqual(await idsOf(s, `sni=${code.slice(0, 2)}`));
      const stats = await s.db.query("SELECT 1 FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'companies' AND attname = 'sni' AND most_common_elems IS NOT NULL");
      expect(stats.rowCount).toBe(1);
      expect((await s.db.query("SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'bolag_sni_keys' AND pronamespace = current_schema()::regnamespace")).rows[0].n).toBe(0);
      await expectPrefixesFound(s);
    });
  });
}
