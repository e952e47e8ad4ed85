// The lines of an open-data file as the import gets them (open-data/classify-lines.ts): whatever
// the reads' sizes, the same lines, numbers, texts, keys and fingerprints as a plain split of the
// decoded file gives; and through the reading thread (compiled: open-data/read-ahead.ts) the same
// batches as on the importing thread, with the file's errors told as they were before.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyLines, type LineBatch } from '../../src/import/open-data/classify-lines.js';
import { lineFingerprint } from '../../src/import/open-data/fingerprint.js';
import { type OpenDataSource, parserFor } from '../../src/import/open-data/source-parser.js';
import { ensureBuilt, ROOT } from '../exports/built.js';

const FIXTURES = join(ROOT, 'test/fixtures/open-data');

interface Entry {
  line: number;
  text: string;
  key: number;
  print: number;
}

/** The lines as the import read them before the thread: the file decoded whole, then split. */
function reference(bytes: Uint8Array, source: OpenDataSource, includePersons: boolean): { entries: Entry[]; persons: number; dataLines: number } {
  const text = new TextDecoder(source === 'scb' ? 'windows-1252' : 'utf-8').decode(bytes);
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop();
  const entries: Entry[] = [];
  let persons = 0;
  let dataLines = 0;
  const parser = parserFor(source, 1, lines[0]);
  lines.forEach((t, i) => {
    if ((i === 0 && parser.header) || t.trim() === '') return;
    dataLines++;
    const key = parser.cheapKey(t);
    if (key === null && !includePersons && parser.cheapPerson(t)) persons++;
    else entries.push({ line: i + 1, text: t, key: key === null ? Number.NaN : Number(key), print: lineFingerprint(t) });
  });
  return { entries, persons, dataLines };
}

async function* inReads(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

function entriesOf(batches: LineBatch[], source: OpenDataSource): Entry[] {
  const decoder = new TextDecoder(source === 'scb' ? 'windows-1252' : 'utf-8', { ignoreBOM: true });
  return batches.flatMap((b) =>
    Array.from({ length: b.length }, (_, i) => ({ line: b.lines[i], text: decoder.decode(b.bytes.subarray(b.starts[i], b.ends[i])), key: b.keys[i], print: b.prints[i] })),
  );
}

async function classify(bytes: Uint8Array, source: OpenDataSource, readSize: number, batchSize: number, includePersons = false): Promise<LineBatch[]> {
  const out: LineBatch[] = [];
  for await (const b of classifyLines(inReads(bytes, readSize), { source, includePersons, batchSize })) out.push(b);
  return out;
}

const bv = (...f: string[]) => `"${f.join('";"')}"`;
const bvLine = (orgNr: string, name: string) => bv(`${orgNr}$ORGNR-IDORG`, '1', 'SE-LAND', `${name}$FORETAGSNAMN-ORGNAM$2020-01-02`, 'AB-ORGFO', '', '', '', '2020-01-02', 'Café', 'Box 1$$STOCKHOLM$11122$SE-LAND');
const person = bv('196406253432$PERSON-IDORG', '1', 'SE-LAND', 'Anna$FORETAGSNAMN-ORGNAM$2001-01-01', 'E-ORGFO', '', '', '', '2001-01-01', 'Frisör', 'Gatan 1$$STOCKHOLM$11122$SE-LAND');

/** A Bolagsverket file with a BOM, CRLF, empty lines, a person, a repeat, dirt, multi-byte names and no last newline. */
const dirtyBolagsverket = new TextEncoder().encode(
  '\uFEFF' +
    [bvLine('5566778899', 'Åkeriet Öst AB'), '', bvLine('5560000001', 'Ångström 😀 AB'), person, '   ', bvLine('5566778899', 'Åkeriet Väst AB'), '"null";"broken', bvLine('5560000002', 'Sista AB')].join('\r\n'),
);

describe('lines sorted out in batches', () => {
  const cases: [string, OpenDataSource, () => Uint8Array][] = [
    ['Bolagsverket fixture', 'bolagsverket', () => readFileSync(join(FIXTURES, 'bolagsverket-week1.txt'))],
    ['SCB fixture (windows-1252)', 'scb', () => readFileSync(join(FIXTURES, 'scb-week1.txt'))],
    ['dirty Bolagsverket lines', 'bolagsverket', () => dirtyBolagsverket],
  ];

  it.each(cases)('%s: the lines of a plain split, whatever the reads and batches', async (_, source, bytesOf) => {
    const bytes = bytesOf();
    for (const includePersons of [false, true]) {
      const want = reference(bytes, source, includePersons);
      for (const [readSize, batchSize] of [[1, 1], [7, 3], [64, 5], [4096, 2000], [bytes.length, 2]]) {
        const batches = await classify(bytes, source, readSize, batchSize, includePersons);
        expect(entriesOf(batches, source)).toEqual(want.entries);
        expect(batches.reduce((n, b) => n + b.persons, 0)).toBe(want.persons);
        expect(batches.reduce((n, b) => n + b.dataLines, 0)).toBe(want.dataLines);
        expect(batches.every((b) => b.length <= batchSize)).toBe(true);
        expect(batches.at(-1)!.bytesRead).toBe(bytes.length);
      }
    }
  });

  it('marks an org nr the batch holds twice, and only within the batch', async () => {
    const batches = await classify(dirtyBolagsverket, 'bolagsverket', 64, 2000);
    const [batch] = batches;
    expect(Array.from(batch.repeated)).toEqual(Array.from(batch.keys, (k) => (k === 5566778899 ? 1 : 0)));
    expect(batch.repeated.filter((r) => r === 1)).toHaveLength(2);
    // Batches of two: the repeat falls in different batches.
    const small = await classify(dirtyBolagsverket, 'bolagsverket', 64, 2);
    expect(small.flatMap((b) => Array.from(b.repeated))).toEqual(new Array(5).fill(0));
  });

  it("refuses an SCB file without its header, at line 1", async () => {
    const bytes = new TextEncoder().encode('x\ty\n1\t2\n');
    await expect(classify(bytes, 'scb', 64, 10)).rejects.toMatchObject({ name: 'ImportError', line: 1 });
  });
});

describe('the reading thread', () => {
  let compiled: typeof import('../../src/import/open-data/read-ahead.js');
  beforeAll(async () => {
    await ensureBuilt();
    compiled = (await import(join(ROOT, 'dist/src/import/open-data/read-ahead.js'))) as typeof compiled;
  });

  const batchesOf = async (path: string, source: OpenDataSource) => {
    const ahead = await compiled.readLinesAhead(path, { source, includePersons: false, batchSize: 3 });
    const out: LineBatch[] = [];
    for await (const b of ahead.batches) out.push(b);
    return { out, totalBytes: ahead.totalBytes, bytesRead: ahead.bytesRead() };
  };

  it.each(['bolagsverket', 'scb'] as const)('hands over the batches made here (%s)', async (source) => {
    const path = join(FIXTURES, `${source}-week2.txt`);
    const bytes = readFileSync(path);
    const { out, totalBytes, bytesRead } = await batchesOf(path, source);
    expect(out.length).toBeGreaterThan(1);
    expect(entriesOf(out, source)).toEqual(entriesOf(await classify(bytes, source, 65536, 3), source));
    expect(totalBytes).toBe(bytes.length);
    expect(bytesRead).toBe(bytes.length);
  });

  it('tells a missing file and a bad header as before, and stops when the import stops', async () => {
    await expect(compiled.readLinesAhead('/nonexistent/bolagsverket.txt', { source: 'bolagsverket', includePersons: false, batchSize: 3 })).rejects.toMatchObject({ code: 'ENOENT' });
    const dir = mkdtempSync(join(tmpdir(), 'bolag-read-ahead-'));
    writeFileSync(join(dir, 'scb.txt'), 'x\ty\n1\t2\n');
    await expect(batchesOf(join(dir, 'scb.txt'), 'scb')).rejects.toMatchObject({ name: 'ImportError', line: 1, message: expect.stringContaining("not the header of SCB's file") });
    rmSync(dir, { recursive: true, force: true });
    // Threads that read to the end or failed end by themselves.
    await expect.poll(() => compiled.readingThreads(), { timeout: 5000 }).toBe(0);
    // Taken one batch of many, then left: the thread is ended, not left waiting for the next take.
    const ahead = await compiled.readLinesAhead(join(FIXTURES, 'bolagsverket-week1.txt'), { source: 'bolagsverket', includePersons: false, batchSize: 1 });
    expect(compiled.readingThreads()).toBe(1);
    for await (const b of ahead.batches) {
      expect(b.length).toBe(1);
      break;
    }
    await expect.poll(() => compiled.readingThreads(), { timeout: 5000 }).toBe(0);
    // Closed before a batch was taken (the store failed first): ended too.
    const unread = await compiled.readLinesAhead(join(FIXTURES, 'bolagsverket-week1.txt'), { source: 'bolagsverket', includePersons: false, batchSize: 1 });
    expect(compiled.readingThreads()).toBe(1);
    await unread.close();
    await expect.poll(() => compiled.readingThreads(), { timeout: 5000 }).toBe(0);
  });
});
