// Lines left out between a batch's lines (blank lines, sole traders) are not kept until the batch
// fills: a zip of one company and 500 MB of newlines took the reader past 1.1 GB. Past 32 MiB of
// buffer the lines waiting go as a batch of their own. Seen here by when the first batch comes:
// before the reader has pulled the whole blank stretch through, not after.
import { expect, it } from 'vitest';
import { classifyLines } from '../../src/import/open-data/classify-lines.js';

const bv = (...f: string[]) => `"${f.join('";"')}"`;
const header = bv('organisationsidentitet', 'namnskyddslopnummer', 'registreringsland', 'organisationsnamn', 'organisationsform', 'avregistreringsdatum', 'avregistreringsorsak', 'pagandeAvvecklingsEllerOmstruktureringsforfarande', 'registreringsdatum', 'verksamhetsbeskrivning', 'postadress');
const company = (orgNr: string) => bv(`${orgNr}$ORGNR-IDORG`, '1', 'SE-LAND', 'Exempel AB$FORETAGSNAMN-ORGNAM$2020-01-02', 'AB-ORGFO', '', '', '', '2020-01-02', 'IT', 'Box 1$$STOCKHOLM$11122$SE-LAND');

const CHUNK = 64 << 10;
const BLANK_CHUNKS = 1024; // 64 MiB of lines of spaces
const encode = (s: string) => new TextEncoder().encode(s);

it('hands over the lines waiting before the blank stretch after them is read whole', async () => {
  let pulled = 0;
  async function* chunks() {
    yield encode(`${header}\n${company('5566778899')}\n`);
    const blank = encode(`${' '.repeat(1023)}\n`.repeat(CHUNK / 1024));
    for (let i = 0; i < BLANK_CHUNKS; i++) {
      pulled++;
      yield blank;
    }
    yield encode(`${company('5560123456')}\n`);
  }
  const seen: { at: number; lines: number[]; bytes: number }[] = [];
  for await (const b of classifyLines(chunks(), { source: 'bolagsverket', includePersons: false, batchSize: 2000 })) {
    seen.push({ at: pulled, lines: [...b.lines], bytes: b.bytes.length });
  }
  // Both companies, with their line numbers in the file (the blank lines counted).
  expect(seen.flatMap((s) => s.lines)).toEqual([2, 3 + BLANK_CHUNKS * (CHUNK / 1024)]);
  // The first went after about 32 MiB of the 64 MiB, not at the end.
  expect(seen[0].at).toBeLessThan(BLANK_CHUNKS * 0.55);
  for (const s of seen) expect(s.bytes).toBeLessThanOrEqual(32 << 20);
});
