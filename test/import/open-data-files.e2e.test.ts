// The files `bolag db import --source …` is given that are not a source's file as it should be:
// each refused with one clear line and a non-zero exit (or, for a zip whose one file is not
// named .txt, read), nothing imported on a guess. The built binary, as a user runs it. Found by
// a review (2026-11-27): before, a zip without a .txt failed with "error: closed", a damaged zip
// was imported (its CRC-32 never checked), the first of two text files was read silently, an
// empty file imported nothing and succeeded, SCB's file given as Bolagsverket's counted every
// line as unreadable, and a file without line breaks was scanned in quadratic time until the
// reading thread ran out of memory and took the process down.
import { closeSync, createWriteStream, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import yazl from 'yazl';
import { MAX_LINE_BYTES } from '../../src/import/open-data/classify-lines.js';
import { bolag, BUILT, ROOT } from '../cli/helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'open-data');
const week1 = readFileSync(join(FIXTURES, 'bolagsverket-week1.txt'));
const dir = mkdtempSync(join(tmpdir(), 'bolag-open-data-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let dbs = 0;
/** An import into a register of its own. */
const importInto = (source: string, file: string) => bolag(['--db', join(dir, `r${++dbs}.db`), 'db', 'import', '--source', source, file]);
/** The companies of the register the last import wrote into. */
const companiesOfLast = () => {
  const db = new Database(join(dir, `r${dbs}.db`), { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM companies').pluck().get() as number;
  } finally {
    db.close();
  }
};

async function zipWith(entries: [string, Buffer][], name: string, opts: { compress?: boolean } = {}): Promise<string> {
  const dest = join(dir, name);
  const zip = new yazl.ZipFile();
  for (const [entry, data] of entries) zip.addBuffer(data, entry, { compress: opts.compress ?? true });
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(dest)).on('close', resolve).on('error', reject));
  return dest;
}

/** One line of stderr, the error's. */
const errorLine = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('error:'));

describe.skipIf(!BUILT)('files that are not a source file as it should be', { timeout: 60_000 }, () => {
  it('reads a zip whose one file is not named .txt', async () => {
    const zip = await zipWith([['bolagsverket_bulkfil.csv', week1]], 'csv.zip');
    const r = await importInto('bolagsverket', zip);
    expect(r.stderr).not.toContain('error:');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).created).toBeGreaterThan(5);
  });

  it('names a file that is not a zip archive, or one cut short (was yauzl\'s words alone)', async () => {
    const notZip = join(dir, 'not-a.zip');
    writeFileSync(notZip, 'not a zip at all');
    const whole = readFileSync(await zipWith([['bolagsverket_bulkfil.txt', week1]], 'whole.zip'));
    const cut = join(dir, 'cut.zip');
    writeFileSync(cut, whole.subarray(0, whole.length - 30));
    for (const file of [notZip, cut]) {
      const r = await importInto('bolagsverket', file);
      expect(r.exitCode).toBe(1);
      expect(errorLine(r.stderr)).toEqual([`error: ${file} cannot be read as a zip archive: End of central directory record signature not found. Either not a zip file, or file is truncated.`]);
    }
  });

  it('refuses a zip that holds two text files, naming them', async () => {
    const zip = await zipWith([['a.txt', week1], ['b.txt', week1]], 'two.zip');
    const r = await importInto('bolagsverket', zip);
    expect(r.exitCode).toBe(1);
    expect(errorLine(r.stderr)).toEqual([expect.stringMatching(/holds 2 files \(a\.txt, b\.txt\)/)]);
  });

  it("reads a zip made on a Mac: what macOS adds beside the file (__MACOSX/, ._*, .DS_Store) is passed over (found 2026-11-29)", async () => {
    const zip = await zipWith(
      [['bolagsverket_bulkfil.txt', week1], ['__MACOSX/._bolagsverket_bulkfil.txt', Buffer.from([0, 5, 22, 7])], ['._bolagsverket_bulkfil.txt', Buffer.from('x')], ['.DS_Store', Buffer.from('x')]],
      'mac.zip',
    );
    const r = await importInto('bolagsverket', zip);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toMatch(/created/);
  });

  it('refuses a zip whose file is damaged (its CRC-32 does not match), importing nothing', async () => {
    const zip = await zipWith([['bolagsverket_bulkfil.txt', week1]], 'stored.zip', { compress: false });
    const bytes = readFileSync(zip);
    // A letter of a company's name inside the stored entry, changed.
    const at = bytes.indexOf(Buffer.from('Exempel'));
    expect(at).toBeGreaterThan(0);
    bytes[at] = 'X'.charCodeAt(0);
    writeFileSync(zip, bytes);
    const r = await importInto('bolagsverket', zip);
    expect(r.exitCode).toBe(1);
    expect(errorLine(r.stderr)).toEqual([expect.stringMatching(/is damaged: its checksum does not match/)]);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    // Its one window of batches rolled back (the damage is known at the entry's end: a larger
    // file imported batch by batch keeps the windows committed before, as on any failure).
    expect(companiesOfLast()).toBe(0);
  });

  it('refuses a line longer than any of the source\'s, asking whether it is the right file (once: no "?.")', async () => {
    const file = join(dir, 'long-line.txt');
    const header = week1.toString('utf8').split('\n')[0];
    writeFileSync(file, `${header}\n"${'x'.repeat(5 << 20)}"\n`);
    const r = await importInto('bolagsverket', file);
    expect(r.exitCode).toBe(2);
    expect(errorLine(r.stderr)).toEqual([expect.stringMatching(/^error: Import stopped at line 2: is longer than 4 MiB, which no line of Bolagsverket's file is: is this the right file\?$/)]);
  });

  it('says an encrypted entry is encrypted (was yauzl\'s "options.decodeFileData !== false")', async () => {
    const zip = await zipWith([['bolagsverket_bulkfil.txt', week1]], 'encrypted.zip');
    const bytes = readFileSync(zip);
    // The "encrypted" bit of the general purpose flags, in the local header and the central directory.
    bytes[6] |= 1;
    bytes[bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 8] |= 1;
    writeFileSync(zip, bytes);
    const r = await importInto('bolagsverket', zip);
    expect(r.exitCode).toBe(1);
    expect(errorLine(r.stderr)).toEqual([`error: bolagsverket_bulkfil.txt in ${zip} is encrypted; unpack it with its password and import the text file`]);
  });

  it('names the entry and its compression when it is neither stored nor deflated (was yauzl\'s "unsupported compression method: 12")', async () => {
    const zip = await zipWith([['bolagsverket_bulkfil.txt', week1]], 'bzip2.zip');
    const bytes = readFileSync(zip);
    // The compression method (12, bzip2), in the local header and the central directory.
    bytes.writeUInt16LE(12, 8);
    bytes.writeUInt16LE(12, bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10);
    writeFileSync(zip, bytes);
    const r = await importInto('bolagsverket', zip);
    expect(r.exitCode).toBe(1);
    expect(errorLine(r.stderr)).toEqual([`error: bolagsverket_bulkfil.txt in ${zip} is compressed with method 12 (not deflate); unpack it and import the text file`]);
  });

  it('names the file and says it is damaged when its compressed data is (was the inflater\'s own words)', async () => {
    const zip = await zipWith([['bolagsverket_bulkfil.txt', Buffer.concat([week1, week1, week1])]], 'deflated.zip');
    const bytes = readFileSync(zip);
    // Bytes in the middle of the deflate stream, changed.
    const middle = Math.floor(bytes.length / 3);
    for (let i = middle; i < middle + 40; i++) bytes[i] ^= 0x5a;
    writeFileSync(zip, bytes);
    const r = await importInto('bolagsverket', zip);
    expect(r.exitCode).not.toBe(0);
    expect(errorLine(r.stderr)).toEqual([expect.stringMatching(/^error: bolagsverket_bulkfil\.txt in .*deflated\.zip is damaged: /)]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a file that is not Bolagsverket\'s at its first line, and one that holds only a BOM (found 2026-11-28: both were imported with exit 0)', async () => {
    const junk = join(dir, 'junk.txt');
    writeFileSync(junk, 'hello world\nfoo\n');
    const notBolagsverket = await importInto('bolagsverket', junk);
    expect(notBolagsverket.exitCode).toBe(2);
    expect(errorLine(notBolagsverket.stderr)).toEqual([expect.stringMatching(/line 1: the first line is neither Bolagsverket's header nor one of its lines/)]);
    const bom = join(dir, 'bom.txt');
    writeFileSync(bom, '\uFEFF');
    const onlyBom = await importInto('bolagsverket', bom);
    expect(onlyBom.exitCode).toBe(2);
    expect(errorLine(onlyBom.stderr)).toEqual([expect.stringMatching(/line 1: the file is empty/)]);
    // Without its header, a file of Bolagsverket's lines is read.
    const headless = join(dir, 'headless.txt');
    writeFileSync(headless, week1.toString('utf8').split('\n').slice(1).join('\n'));
    expect((await importInto('bolagsverket', headless)).exitCode).toBe(0);
  });

  it('refuses a pipe or a folder for a file, at once (a pipe failed with "ESPIPE: invalid seek", or, for our format, imported nothing with exit 0)', async () => {
    for (const source of ['bolagsverket', 'ours']) {
      const piped = await bolag(['--db', join(dir, `pipe-${++dbs}.db`), 'db', 'import', '--source', source, '/dev/stdin'], { input: week1 });
      expect(piped.exitCode).toBe(2);
      expect(errorLine(String(piped.stderr))).toEqual([expect.stringMatching(/^error: \/dev\/stdin is not a regular file: save the download to a file first/)]);
    }
    const folder = await importInto('scb', dir);
    expect(folder.exitCode).toBe(2);
    expect(errorLine(String(folder.stderr))).toEqual([expect.stringMatching(/is not a regular file/)]);
  });

  it('refuses an empty file, of either source', async () => {
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '');
    for (const source of ['bolagsverket', 'scb']) {
      const r = await importInto(source, empty);
      expect(r.exitCode).toBe(2);
      expect(errorLine(r.stderr)).toEqual([expect.stringMatching(/line 1: the file is empty/)]);
    }
  });

  it('fails a file of no usable lines, which imported nothing with exit 0 (a header alone, CR line ends, every line unreadable)', async () => {
    const lines = week1.toString('utf8').split('\n');
    const headerOnly = join(dir, 'header-only.txt');
    writeFileSync(headerOnly, `${lines[0]}\n`);
    const header = await importInto('bolagsverket', headerOnly);
    expect(header.exitCode).toBe(2);
    expect(errorLine(header.stderr)).toEqual([`error: ${headerOnly} has no Bolagsverket lines after its header; nothing was imported.`]);

    const crOnly = join(dir, 'cr-only.txt');
    writeFileSync(crOnly, lines.map((l) => l.replace(/\r$/, '')).join('\r'));
    const cr = await importInto('bolagsverket', crOnly);
    expect(cr.exitCode).toBe(2);
    expect(errorLine(cr.stderr)).toEqual(['error: Import stopped at line 1: its lines end in a carriage return alone, which neither source writes; convert them to line feeds (or CR LF).']);
    const scbCr = join(dir, 'scb-cr-only.txt');
    writeFileSync(scbCr, readFileSync(join(FIXTURES, 'scb-week1.txt'), 'latin1').replaceAll('\r\n', '\n').replaceAll('\n', '\r'), 'latin1');
    expect(errorLine((await importInto('scb', scbCr)).stderr)).toEqual([expect.stringContaining('its lines end in a carriage return alone')]);

    // A new column on every line (a new format of the file): no line can be read.
    const newColumn = join(dir, 'new-column.txt');
    writeFileSync(newColumn, lines.map((l, i) => (i === 0 || l === '' ? l : `"5590000000$ORGNR-IDORG";"1";${l.replace(/\r$/, '').split(';').slice(2).join(';')};"X"`)).join('\n'));
    const unreadable = await importInto('bolagsverket', newColumn);
    expect(unreadable.exitCode).toBe(2);
    expect(errorLine(unreadable.stderr)).toEqual([expect.stringMatching(/^error: None of the \d+ lines of .* could be read \(a new format of the file\?\); nothing was imported\.$/)]);
    expect(companiesOfLast()).toBe(0);
    // Most of them: what could be read is in, and the exit says the rest is not.
    const most = join(dir, 'most-unreadable.txt');
    writeFileSync(most, lines.map((l, i) => (i === 0 || i === 2 || l === '' ? l : `${l.replace(/\r$/, '')};"X"`)).join('\n'));
    const partly = await importInto('bolagsverket', most);
    expect(partly.exitCode).toBe(2);
    expect(errorLine(partly.stderr)).toEqual([expect.stringMatching(/^error: \d+ of the \d+ lines of .* could not be read \(a new format of the file\?\); the \d+ others were imported\.$/)]);
    expect(companiesOfLast()).toBeGreaterThan(0);
  });

  it("refuses a Bolagsverket header whose columns moved, were renamed or added (the dates' swap deregistered every company)", async () => {
    const [header, ...rest] = week1.toString('utf8').split('\n');
    const names = header.replace(/^\uFEFF/, '').replace(/\r$/, '').split(';');
    const swapped = [...names];
    [swapped[5], swapped[8]] = [swapped[8], swapped[5]];
    for (const [label, columns, why] of [
      ['swapped', swapped, 'its column 6 is "registreringsdatum" where "avregistreringsdatum" was expected'],
      ['renamed', names.map((n) => (n === 'postadress' ? 'postadr' : n)), 'its column 11 is "postadr" where "postadress" was expected'],
      ['added', [...names, 'nyttFalt'], 'it has 12 columns where 11 were expected ("nyttfalt" is new)'],
    ] as const) {
      const file = join(dir, `header-${label}.txt`);
      writeFileSync(file, [columns.join(';'), ...rest].join('\n'));
      const r = await importInto('bolagsverket', file);
      expect(r.exitCode, label).toBe(2);
      expect(errorLine(r.stderr), label).toEqual([`error: Import stopped at line 1: the header is not Bolagsverket's as this version of bolag reads it: ${why}. Its lines are read by position, so none was read.`]);
      expect(companiesOfLast(), label).toBe(0);
    }
    // Quoted, in capitals, with the trailing separator some extracts have: the same header.
    const quoted = join(dir, 'header-quoted.txt');
    writeFileSync(quoted, [`${names.map((n) => `"${n.toUpperCase()}"`).join(';')};`, ...rest].join('\n'));
    const ok = await importInto('bolagsverket', quoted);
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
  });

  it('leaves a register a refused zip was to fill unmarked, so a first start still generates it', async () => {
    const zip = await zipWith([['a.txt', week1], ['b.txt', week1]], 'two-again.zip');
    const r = await importInto('bolagsverket', zip);
    expect(r.exitCode).toBe(1);
    const db = new Database(join(dir, `r${dbs}.db`), { readonly: true });
    try {
      expect(db.prepare("SELECT count(*) FROM settings WHERE name = 'register.imported'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('refuses an --errors file it cannot write before it imports anything (was a stack trace at the first bad line)', async () => {
    const file = join(FIXTURES, 'bolagsverket-week1.txt');
    for (const [errors, why] of [
      [join(dir, 'no-such-folder', 'errors.tsv'), 'its folder does not exist'],
      [dir, 'it is a folder'],
    ]) {
      const db = join(dir, `errors-${++dbs}.db`);
      const r = await bolag(['--db', db, 'db', 'import', '--source', 'bolagsverket', '--errors', errors, file]);
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr).trim()).toBe(`error: Cannot write --errors ${errors}: ${why}.`);
      expect(existsSync(db), 'no register created').toBe(false);
    }
  });

  it('refuses an --errors file that is the register, one of its files or the file imported (opening it emptied the register)', async () => {
    const register = join(dir, `errors-${++dbs}.db`);
    const first = await bolag(['--db', register, 'db', 'import', '--source', 'bolagsverket', join(FIXTURES, 'bolagsverket-week1.txt')]);
    expect(first.exitCode).toBe(0);
    const input = join(dir, 'week2-copy.txt');
    writeFileSync(input, readFileSync(join(FIXTURES, 'bolagsverket-week2.txt')));
    const before = { register: readFileSync(register), input: readFileSync(input) };
    for (const [errors, named] of [
      [register, register],
      [`${register}-wal`, register],
      [`${register}.first-load.lock`, register],
      [input, input],
      [join(dir, '.', 'week2-copy.txt'), input],
    ]) {
      const r = await bolag(['--db', register, 'db', 'import', '--source', 'bolagsverket', '--errors', errors, input]);
      expect(r.exitCode, errors).toBe(2);
      expect(String(r.stderr).trim()).toBe(`error: --errors ${errors} would overwrite ${named}: give the errors a file of their own.`);
    }
    expect(readFileSync(register).equals(before.register), 'the register unchanged').toBe(true);
    expect(readFileSync(input).equals(before.input), 'the file imported unchanged').toBe(true);
    // A file of its own beside them is fine, named after either.
    const own = await bolag(['--db', register, 'db', 'import', '--source', 'bolagsverket', '--errors', `${input}.errors.tsv`, input]);
    expect(own.exitCode, String(own.stderr)).toBe(0);
  });

  it("refuses SCB's file given as Bolagsverket's, as SCB's refuses Bolagsverket's", async () => {
    const r = await importInto('bolagsverket', join(FIXTURES, 'scb-week1.txt'));
    expect(r.exitCode).toBe(2);
    expect(errorLine(r.stderr)).toEqual([expect.stringMatching(/line 1: this is SCB's file .*--source scb/)]);
    const back = await importInto('scb', join(FIXTURES, 'bolagsverket-week1.txt'));
    expect(back.exitCode).toBe(2);
    expect(errorLine(back.stderr)).toEqual([expect.stringMatching(/line 1: this is Bolagsverket's file .*--source bolagsverket/)]);
  });

  it('refuses a file with a line longer than any of a source, at its line, in bounded memory', async () => {
    // The header and a company, then 64 MiB without a line break (as a binary file would be).
    const path = join(dir, 'no-line-breaks.txt');
    const lines = week1.toString('utf8').split('\n');
    const fd = openSync(path, 'w');
    writeSync(fd, `${lines[0]}\n${lines[1]}\n`);
    const block = Buffer.alloc(1 << 20, 'x');
    for (let i = 0; i < 64; i++) writeSync(fd, block);
    closeSync(fd);
    const r = await importInto('bolagsverket', path);
    expect(r.exitCode).toBe(2);
    expect(errorLine(r.stderr)).toEqual([expect.stringMatching(new RegExp(`line 3: is longer than ${MAX_LINE_BYTES >> 20} MiB`))]);
    expect(r.stderr).not.toContain('FATAL');
  });
});

describe.skipIf(!BUILT)('--strict', { timeout: 60_000 }, () => {
  it('stops at the first unreadable line in the file, whether its org nr can be read or not', async () => {
    // Line 3 names its org nr but has too few fields (parsed when the import asks for it), line
    // 4 names nothing (parsed as it is read): until 2026-11-27 --strict stopped at line 4.
    const lines = week1.toString('utf8').split('\n');
    const path = join(dir, 'strict.txt');
    writeFileSync(path, [lines[0], lines[1], '"5566778899$ORGNR-IDORG";"1";"SE-LAND"', 'garbage line', lines[2]].join('\n'));
    const r = await bolag(['--db', join(dir, `r${++dbs}.db`), 'db', 'import', '--source', 'bolagsverket', '--strict', path]);
    expect(r.exitCode).toBe(2);
    expect(errorLine(r.stderr)).toEqual([expect.stringMatching(/^error: Import stopped at line 3: .*nothing was changed/)]);
    expect(companiesOfLast()).toBe(0);
  });
});
