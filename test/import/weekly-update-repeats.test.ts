// A weekly open-data update settles its unchanged lines against the fingerprints it read when it
// started (store/listed-fingerprints.ts): an org nr the file repeats is never settled from a
// fingerprint older than what an earlier line of it wrote. And a first load leaves its full-text
// index merged, so that the next update's merges do not rewrite all of it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBolagsverket } from '../../bench/import-bulk/generate-bolagsverket.js';
import { importOpenData } from '../../src/import/import-open-data.js';
import type { Db } from '../../src/store/sqlite/database.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { DATABASE_URL, openFreshPgStore } from '../helpers/pg.js';
import { ensureBuilt, ROOT } from '../exports/built.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'open-data');
const dir = mkdtempSync(join(tmpdir(), 'bolag-weekly-windows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The number of segments of the full-text index, from its structure record (fts5_index.c, fts5StructureDecode). */
function ftsSegments(db: Db): number {
  const block = db.prepare('SELECT block FROM companies_fts_data WHERE id = 10').pluck().get() as Buffer;
  // A 4-byte cookie, the 4-byte marker of the record's second version, then varints: levels, segments.
  let at = block.subarray(4, 8).equals(Buffer.from([0xff, 0, 0, 1])) ? 8 : 4;
  const varint = () => {
    let value = 0;
    for (;;) {
      const byte = block[at++];
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) return value;
    }
  };
  varint(); // levels
  return varint();
}

const stores = [
  { name: 'SQLite', open: async () => openSqliteStore(join(dir, 'repeated.db')) as Store },
  ...(DATABASE_URL ? [{ name: 'PostgreSQL', open: async () => (await openFreshPgStore()) as Store }] : []),
];

for (const flavour of stores) {
  describe(`a weekly update on ${flavour.name}, settled against the fingerprints read at its start`, () => {
    it('keeps the first line of an org nr the file repeats, even where the later one equals what was stored', async () => {
      const store = await flavour.open();
      try {
        const week1 = join(FIXTURES, 'bolagsverket-week1.txt');
        await importOpenData(store, week1, { source: 'bolagsverket' });
        const [header, first] = readFileSync(week1, 'utf8').split('\n');
        expect(first).toContain('"5566778899$ORGNR-IDORG"');
        const renamed = first.replace('Exempel Sverige AB$', 'Exempel Omdöpt AB$');
        // A renaming line, then week 1's line again, in one batch and in batches of one (the later
        // line then read after the earlier was written): the renaming one stands, once told, and
        // week 1's line is a repeat (until 2026-11-29 the last stood, each line told).
        const file = join(dir, `repeated-${flavour.name}.txt`);
        writeFileSync(file, `${header}\n${renamed}\n${first}\n`);
        for (const batchSize of [2_000, 1]) {
          await importOpenData(store, week1, { source: 'bolagsverket' });
          expect((await store.companies.get('5566778899'))?.name).toBe('Exempel Sverige AB');
          const { result, stats } = await importOpenData(store, file, { source: 'bolagsverket', batchSize });
          expect(result.events['company.updated'], `batches of ${batchSize}`).toBe(1);
          expect(stats.repeatedLines, `batches of ${batchSize}`).toBe(1);
          expect((await store.companies.get('5566778899'))?.name).toBe('Exempel Omdöpt AB');
        }
      } finally {
        await store.close();
      }
    });
  });
}

describe("a first load's full-text index", () => {
  const file = join(dir, 'bolagsverket-60000.txt');
  beforeAll(async () => {
    // Enough names for the build to write several segments (FTS5 flushes every ~1 MiB of terms).
    generateBolagsverket(file, 60_000, 1);
    await ensureBuilt();
  });

  it('is one segment after the load, built on this thread or beside it', async () => {
    const compiled = (await import(join(ROOT, 'dist/src/import/import-open-data.js'))) as typeof import('../../src/import/import-open-data.js');
    const compiledStore = (await import(join(ROOT, 'dist/src/store/sqlite/sqlite-store.js'))) as typeof import('../../src/store/sqlite/sqlite-store.js');
    for (const [name, load, open] of [
      ['this thread', importOpenData, openSqliteStore],
      ['beside it', compiled.importOpenData, compiledStore.openSqliteStore],
    ] as const) {
      const store = open(join(dir, `first-load-${name.replace(' ', '-')}.db`));
      try {
        await load(store, file, { source: 'bolagsverket' });
        expect(store.db.prepare('SELECT count(*) FROM companies').pluck().get()).toBeGreaterThan(40_000);
        expect(ftsSegments(store.db), name).toBe(1);
      } finally {
        await store.close();
      }
    }
  });
});
