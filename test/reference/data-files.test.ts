// The reference tables live as JSON under src/reference/data/ and each is read by one typed
// module (a JSON import, which tsc emits into dist/); the build must put them beside the compiled modules, or the binary cannot start.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/reference/', import.meta.url);
const DATA = new URL('data/', SRC);
const BUILT = new URL('../../dist/src/reference/data/', import.meta.url);

const tables = readdirSync(DATA).filter((n) => n.endsWith('.json'));
const modules = readdirSync(SRC).filter((n) => n.endsWith('.ts'));
const readers = (table: string) => modules.filter((m) => readFileSync(new URL(m, SRC), 'utf8').includes(`from './data/${table}.json' with { type: 'json' }`));

describe('reference data files', () => {
  it('hold the tables named in the issue, each a JSON array of records', () => {
    expect(tables).toEqual(
      expect.arrayContaining(['categories', 'counties', 'municipalities', 'sni-details', 'sni-divisions', 'sni-groups', 'sni-sections'].map((n) => `${n}.json`)),
    );
    for (const t of ['categories', 'counties', 'municipalities', 'sni-details', 'sni-divisions', 'sni-groups', 'sni-sections']) {
      const rows = JSON.parse(readFileSync(new URL(`${t}.json`, DATA), 'utf8')) as unknown[];
      expect(Array.isArray(rows) && rows.length > 0 && rows.every((r) => typeof r === 'object' && r !== null)).toBe(true);
    }
  });

  it('are each read through exactly one typed module', () => {
    for (const t of tables) expect(readers(t.replace(/\.json$/, '')), t).toHaveLength(1);
  });

  it('are emitted by the build beside the compiled modules, with the same content', () => {
    for (const t of tables) expect(JSON.parse(readFileSync(new URL(t, BUILT), 'utf8')), t).toEqual(JSON.parse(readFileSync(new URL(t, DATA), 'utf8')));
  });

  it('ship in the package (package.json "files" covers dist/src)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('dist/src');
  });
});
