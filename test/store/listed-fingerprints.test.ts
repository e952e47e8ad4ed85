// The fingerprints a weekly import reads at its start: found by org nr, kept as the import writes
// them, and the rows it never saw handed back in org nr order for the vanished step.
import { isPersonalNumber } from '../../src/core/orgnr.js';
import { describe, expect, it } from 'vitest';
import { ListedFingerprints } from '../../src/store/listed-fingerprints.js';
import { RowidSet } from '../../src/store/sqlite/rowid-set.js';

function listedOf(rows: [string, number, number][]): ListedFingerprints {
  const listed = new ListedFingerprints(rows.length);
  for (const [orgNr, rowid, print] of rows) listed.add(orgNr, rowid, print);
  return listed;
}

describe('ListedFingerprints', () => {
  it('finds every listed org nr and nothing else, as a Map of the same rows does', () => {
    const rows: [string, number, number][] = [];
    for (let i = 0; i < 5_000; i++) rows.push([String(5_560_000_000 + i * 7), i + 1, 2 ** 52 - i * 13]);
    const listed = listedOf(rows);
    const byKey = new Map(rows.map(([k, rowid, print]) => [k, { rowid, print }]));
    for (let n = 5_559_999_990; n < 5_560_000_000 + 5_000 * 7 + 10; n++) {
      const entry = listed.find(String(n));
      const expected = byKey.get(String(n));
      if (!expected) {
        expect(entry, String(n)).toBe(-1);
        continue;
      }
      expect(listed.rowid(entry)).toBe(expected.rowid);
      expect(listed.fingerprint(entry)).toBe(expected.print);
    }
  });

  it('finds them in any order of asking: near the last found, far after it, before it, past the ends (a file need not be in org nr order)', () => {
    const rows: [string, number, number][] = [];
    for (let i = 0; i < 5_000; i++) rows.push([String(5_560_000_000 + i * 7), i + 1, i]);
    const listed = listedOf(rows);
    // Steps of every size from the last entry asked, both ways, and keys between and beyond the listed.
    const asked: number[] = [];
    let at = 0;
    for (let i = 0; i < 20_000; i++) {
      at = Math.max(0, Math.min(4_999, at + [1, 2, 3, 63, 64, 65, 127, 128, 129, 1000, -1, -64, -2000][i % 13] * (i % 7 === 0 ? -1 : 1)));
      asked.push(5_560_000_000 + at * 7 + (i % 11 === 0 ? 3 : 0));
    }
    asked.push(5_559_999_999, 5_560_000_000 + 5_000 * 7, 5_560_000_000, 5_560_000_000 + 4_999 * 7);
    for (const n of asked) {
      const i = (n - 5_560_000_000) / 7;
      const want = Number.isInteger(i) && i >= 0 && i < 5_000 ? i : -1;
      const entry = listed.find(String(n));
      expect(entry, String(n)).toBe(want);
    }
  });

  it('keeps the fingerprint the import wrote, and ignores an org nr it does not list', () => {
    const listed = listedOf([['5560000001', 1, 10], ['5560000002', 2, 20]]);
    listed.set('5560000002', 99);
    listed.set('5569999999', 7);
    expect(listed.fingerprint(listed.find('5560000002'))).toBe(99);
    expect(listed.fingerprint(listed.find('5560000001'))).toBe(10);
    expect(listed.find('5569999999')).toBe(-1);
  });

  it('hands back the rows not seen, in org nr order, a page at a time', () => {
    const listed = listedOf([['5560000001', 9, 1], ['5560000002', 3, 1], ['5560000003', 5, 1], ['5560000004', 1, 1], ['5560000005', 2, 1]]);
    const seen = new RowidSet();
    seen.add(3);
    seen.add(2);
    expect([...listed.unseenPages(seen, undefined, 2)]).toEqual([[9, 5], [1]]);
    seen.add(9);
    seen.add(5);
    seen.add(1);
    expect([...listed.unseenPages(seen, undefined, 2)]).toEqual([]);
  });

  it('spares the keys it is told to, in the count against the limit too', () => {
    // Two sole traders (personal numbers: a month in digits 3-4), one born in the 2000s (a leading zero).
    const listed = listedOf([['0501011234', 7, 1], ['5560000001', 9, 1], ['5560000002', 3, 1], ['6406253432', 4, 1]]);
    const seen = new RowidSet();
    seen.add(3);
    const spare = (n: number) => isPersonalNumber(n);
    expect(listed.vanished(seen, undefined, spare)).toMatchObject({ withheld: 0 });
    expect([...listed.vanished(seen, undefined, spare).pages]).toEqual([[9]]);
    expect(listed.vanished(seen, () => 0, spare)).toEqual({ pages: [], withheld: 1 });
    expect([...listed.vanished(seen, undefined).pages]).toEqual([[7, 9, 4]]);
  });

  it('refuses rows out of order or beyond the count, rather than answering wrongly', () => {
    const listed = new ListedFingerprints(2);
    listed.add('5560000002', 1, 1);
    expect(() => listed.add('5560000001', 2, 1)).toThrow(/out of order/);
    listed.add('5560000003', 2, 1);
    expect(() => listed.add('5560000004', 3, 1)).toThrow(/more listed rows than counted/);
  });
});
