// Long text in Bolagsverket's file, on both stores (PostgreSQL when DATABASE_URL is set): a name
// the indexes cannot hold is an unreadable line with its number; a business description is the
// file's, whatever its length, and still found by its words. PostgreSQL refuses a full-text word
// of 2 kB and a tsvector of 1 MB, which such a description passed (src/core/stored-text.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SEARCH_QUERY_SCHEMA, toSearchQuery } from '../../src/core/search-params.js';
import { importOpenData } from '../../src/import/import-open-data.js';
import type { Store } from '../../src/store/store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { DATABASE_URL, openFreshPgStore } from '../helpers/pg.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-long-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bv = (...f: string[]) => `"${f.join('";"')}"`;
const line = (orgNr: string, name: string, description: string) =>
  bv(`${orgNr}$ORGNR-IDORG`, '1', 'SE-LAND', `${name}$FORETAGSNAMN-ORGNAM$2020-01-02`, 'AB-ORGFO', '', '', '', '2020-01-02', description, 'Box 1$$STOCKHOLM$11122$SE-LAND');

// A word of 2,100 letters, then 120,000 distinct words (over 1 MB as lexemes).
const longWord = `kvarnsten${'x'.repeat(2100)}`;
const manyWords = Array.from({ length: 120_000 }, (_, i) => `ord${i.toString(36)}`).join(' ');

const STORES: [string, () => Promise<Store>][] = [['SQLite', async () => openSqliteStore(join(dir, `register-${Date.now()}.db`))]];
if (DATABASE_URL) STORES.push(['PostgreSQL', openFreshPgStore]);

describe.each(STORES)('long text from Bolagsverket on %s', (_, open) => {
  it('counts a name the indexes cannot hold as unreadable, and keeps and finds a description of any length', async () => {
    const file = join(dir, `long-${_}.txt`);
    writeFileSync(
      file,
      [
        line('5560000001', 'Kvarnen AB', `${longWord} ${manyWords}`),
        line('5560000019', `${'Bygg '.repeat(201)}AB`, 'bygg'),
        line('5560000027', 'Smedjan AB', 'smide'),
      ].join('\n') + '\n',
    );
    const store = await open();
    try {
      const errors: [number, string][] = [];
      const { result, stats } = await importOpenData(store, file, { source: 'bolagsverket', onError: (n, message) => errors.push([n, message]) });
      expect(errors).toEqual([[2, 'the name is too long (over 1000 bytes once folded)']]);
      expect(stats.errors).toBe(1);
      expect(result.created).toBe(2);
      const search = async (q: string) =>
        (await store.companies.search(toSearchQuery(SEARCH_QUERY_SCHEMA.parse({ q, status: 'all' })), null)).rows.map((c) => c.name);
      expect(await search('kvarnsten')).toEqual(['Kvarnen AB']);
      expect(await search('ord0')).toEqual(['Kvarnen AB']);
      expect(await search('smide')).toEqual(['Smedjan AB']);
    } finally {
      await store.close();
    }
  }, 120_000);
});
