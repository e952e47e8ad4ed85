// A source's file saved again in the other encoding (SCB's as UTF-8 with or without a BOM,
// Bolagsverket's as Latin-1) reads as the original: the same companies, the same text, and, after
// the original, nothing changed. Found by an exploratory run (2026-11-29): stored garbled
// (`GÃ–TEBORG`, `Solg�rden`), silently, with an update for every company with a letter past ASCII.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { importOpenData } from '../../src/import/import-open-data.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'open-data');
const dir = mkdtempSync(join(tmpdir(), 'bolag-other-encoding-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const names = (store: ReturnType<typeof openSqliteStore>) => store.db.prepare('SELECT org_nr, name, city FROM companies ORDER BY org_nr').raw(true).all();

it("reads SCB's file saved as UTF-8 and Bolagsverket's saved as Latin-1 as the originals", async () => {
  const bv = join(FIXTURES, 'bolagsverket-week1.txt');
  const scb = join(FIXTURES, 'scb-week1.txt');
  const scbText = readFileSync(scb).toString('latin1');
  expect(scbText).toMatch(/[åäöÅÄÖ]/);
  const scbUtf8 = join(dir, 'scb-utf8.txt');
  writeFileSync(scbUtf8, scbText, 'utf8');
  const scbBom = join(dir, 'scb-utf8-bom.txt');
  writeFileSync(scbBom, `\uFEFF${scbText}`, 'utf8');
  const bvText = readFileSync(bv, 'utf8');
  const bvLatin1 = join(dir, 'bv-latin1.txt');
  // Latin-1 holds every character of the fixture but its BOM.
  writeFileSync(bvLatin1, Buffer.from(bvText.replace(/^\uFEFF/, ''), 'latin1'));

  const original = openSqliteStore(join(dir, 'original.db'));
  await importOpenData(original, bv, { source: 'bolagsverket' });
  await importOpenData(original, scb, { source: 'scb' });
  const expected = names(original);
  expect(JSON.stringify(expected)).toMatch(/[åäöÅÄÖ]/);
  for (const [label, file, source] of [
    ['SCB as UTF-8', scbUtf8, 'scb'],
    ['SCB as UTF-8 with a BOM', scbBom, 'scb'],
    ['Bolagsverket as Latin-1', bvLatin1, 'bolagsverket'],
  ] as const) {
    const again = await importOpenData(original, file, { source });
    expect(again.result, label).toMatchObject({ created: 0, updated: 0, events: {} });
    expect(names(original), label).toEqual(expected);
  }
  await original.close();

  // Loaded from them, the register is the same.
  const other = openSqliteStore(join(dir, 'other.db'));
  await importOpenData(other, bvLatin1, { source: 'bolagsverket' });
  await importOpenData(other, scbBom, { source: 'scb' });
  expect(names(other)).toEqual(expected);
  await other.close();
});
