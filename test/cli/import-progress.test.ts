// `bolag db import --source …` on a terminal: rows, rate and time left while the file is read,
// then a first load's index builds, which come after the last row (tens of seconds at full size)
// and which the line said nothing of (it stood at "about 0 s left"). Nothing on a pipe.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importProgress } from '../../src/cli/commands/db/import-progress.js';
import { testIO } from '../../src/cli/io.js';
import { importOpenData } from '../../src/import/import-open-data.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'open-data');
const dir = mkdtempSync(join(tmpdir(), 'bolag-import-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The lines drawn, each redraw (\r, clear line) a line of its own; numbers' no-break spaces as spaces. */
const drawn = (err: string) => err.split('\r\u001b[2K').filter((l) => l !== '').map((l) => l.replaceAll('\u00a0', ' '));

describe('the progress of an open-data import', () => {
  it('on a terminal, draws the rows, then each index built with the time spent on them', () => {
    const io = testIO({ tty: true });
    let t = 1_000_000;
    const progress = importProgress(io, 'Importing scb', () => t);
    t += 2_000;
    progress.update({ lines: 200_000, bytes: 50, totalBytes: 100 });
    progress.indexes(0, 17);
    t += 4_000;
    progress.indexes(5, 17);
    t += 61_000;
    progress.indexes(17, 17);
    progress.done();
    progress.done();
    const lines = drawn(io.err());
    expect(lines[0]).toBe('Importing scb: 200 000 rows · 100 000 rows/s · 50 % · about 2 s left');
    expect(lines.slice(1)).toEqual([
      'Importing scb: 200 000 rows · indexes 0 of 17 · 0 s',
      'Importing scb: 200 000 rows · indexes 5 of 17 · 4 s',
      'Importing scb: 200 000 rows · indexes 17 of 17 · 1 min 5 s',
    ]);
    // Cleared at the end, once: the summary follows on a clean line.
    expect(io.err().endsWith('1 min 5 s\r\u001b[2K')).toBe(true);
  });

  it('without the bytes read (our own format), draws the rows and the rate', () => {
    const io = testIO({ tty: true });
    let t = 0;
    const progress = importProgress(io, 'Importing', () => t);
    t += 2_000;
    progress.update({ lines: 50_000 });
    expect(drawn(io.err())).toEqual(['Importing: 50 000 rows · 25 000 rows/s']);
  });

  it('on a narrow terminal, fits one row: the rate goes first, then the time, and the line is cut last', () => {
    const draw = (columns: number) => {
      const io = testIO({ tty: true, columns });
      let t = 0;
      const progress = importProgress(io, 'Importing bolagsverket', () => t);
      t += 2_000;
      progress.update({ lines: 1_200_000, bytes: 40, totalBytes: 100 });
      t += 2_000;
      progress.update({ lines: 3_000_000, bytes: 100, totalBytes: 100 });
      progress.indexes(3, 17);
      return drawn(io.err());
    };
    expect(draw(100)).toEqual([
      'Importing bolagsverket: 1 200 000 rows · 600 000 rows/s · 40 % · about 3 s left',
      // Read to its end, the last batches still being written.
      'Importing bolagsverket: 3 000 000 rows · 750 000 rows/s · 100 % · finishing',
      'Importing bolagsverket: 3 000 000 rows · indexes 3 of 17 · 0 s',
    ]);
    expect(draw(64)).toEqual([
      'Importing bolagsverket: 1 200 000 rows · 40 % · about 3 s left',
      'Importing bolagsverket: 3 000 000 rows · 100 % · finishing',
      'Importing bolagsverket: 3 000 000 rows · indexes 3 of 17 · 0 s',
    ]);
    expect(draw(60)[2]).toBe('Importing bolagsverket: 3 000 000 rows · indexes 3 of 17');
    expect(draw(50)[0]).toBe('Importing bolagsverket: 1 200 000 rows · 40 %');
    expect(draw(40)).toEqual(['Importing bolagsverket: 1 200 000 rows', 'Importing bolagsverket: 3 000 000 rows', 'Importing bolagsverket: 3 000 000 rows']);
    for (const line of draw(30)) expect([...line].length).toBeLessThanOrEqual(29);
  });

  it('on a pipe, draws nothing', () => {
    const io = testIO({ tty: false });
    const progress = importProgress(io, 'Importing scb');
    progress.update({ lines: 10, bytes: 1, totalBytes: 2 });
    progress.indexes(3, 17);
    progress.done();
    expect(io.err()).toBe('');
  });

  it('hears of the index builds of a first load, from none to all, and of none in a weekly update', async () => {
    const store = openSqliteStore(join(dir, 'register.db'));
    try {
      const first: [number, number][] = [];
      await importOpenData(store, join(FIXTURES, 'bolagsverket-week1.txt'), { source: 'bolagsverket', onIndexes: (d, t) => first.push([d, t]) });
      expect(first.length).toBeGreaterThanOrEqual(2);
      const total = first[0][1];
      expect(first[0]).toEqual([0, total]);
      expect(first.at(-1)).toEqual([total, total]);
      expect(first.every(([d], i) => i === 0 || d >= first[i - 1][0])).toBe(true);
      const week2: [number, number][] = [];
      await importOpenData(store, join(FIXTURES, 'bolagsverket-week2.txt'), { source: 'bolagsverket', onIndexes: (d, t) => week2.push([d, t]) });
      expect(week2).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
