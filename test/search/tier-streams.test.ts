// Relevance tiers 2 and 3 read from the wider two-letter prefix stream, from a listing of it, or
// from the exact prefix (search/tier-streams.ts): whichever is read, every page and every cursor
// must give the reference answer, in both directions, with and without other filters.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '../../src/core/company.js';
import { parseTextQuery } from '../../src/store/sqlite/search/text-query.js';
import { ftsAllWords } from '../../src/store/sqlite/search/predicates.js';
import { widePrefix } from '../../src/store/sqlite/search/tier-streams.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { type SearchServer, searchAll, tunedSqliteSearch } from '../helpers/search-server.js';
import { expected, type Params } from './reference.js';

let s: SearchServer<SqliteStore>;
let all: Company[];
const tuned = tunedSqliteSearch();
beforeAll(() => {
  s = tuned.server();
  all = tuned.all();
});

describe('the wide prefix', () => {
  const wide = (q: string) => {
    const tq = parseTextQuery(q);
    return widePrefix(tq, ftsAllWords(tq, false) as string);
  };
  it('cuts the last word to the two letters the prefix index holds, and leaves the others exact', () => {
    expect(wide('fastighet')).toBe('{name org_nr} : ("fa"*)');
    expect(wide('svensson Bygg')).toBe('{name org_nr} : ("svensson" AND "by"*)');
    expect(wide('Örebro')).toBe('{name org_nr} : ("or"*)');
  });
  it('leaves a prefix the index already holds as it is', () => {
    expect(wide('i ab')).toBe('{name org_nr} : ("i" AND "ab"*)');
    expect(wide('a')).toBe('{name org_nr} : ("a"*)');
  });
});

describe('every page of a tier walk gives the reference answer', () => {
  const words = ['fastighet', 'fastighetsf', 'byggn', 'byggnads', 'konsulte', 'elinst', 'frisörs', 'i ab', 'å ab', 'ab', 'an', 'svensson bygg', 'andersson bygg', 'norden ab', 'nord fastighet', 'bygg konsult'];
  const shapes: Params[] = words.flatMap((q) => [{ q }, { q, sort: '-relevance', status: 'all' }, { q, county: '01' }]);
  for (const p of shapes) {
    it(new URLSearchParams(p).toString(), async () => {
      const got = await searchAll(s, p, 7);
      expect(got.map((c) => c.id)).toEqual(expected(all, p).map((c) => c.id));
    });
  }
});
