import { describe, expect, it } from 'vitest';
import { SeenNumbers } from '../../src/seed/seen-numbers.js';

describe('SeenNumbers', () => {
  it('answers as a Set does, through growth, for ten-digit numbers and ones that differ only in their high digits', () => {
    const seen = new SeenNumbers();
    const reference = new Set<number>();
    let x = 12345;
    for (let i = 0; i < 300_000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      // Half from a small range (repeats), half spread over ten digits; some 2^32 apart.
      const n = i % 2 === 0 ? x % 50_000 : (x % 9_999_999_999) + (i % 3 === 0 ? 4_294_967_296 : 0);
      expect(seen.add(n)).toBe(!reference.has(n));
      reference.add(n);
    }
    expect(seen.add(0)).toBe(!reference.has(0));
    expect(seen.add(9_999_999_999)).toBe(!reference.has(9_999_999_999));
    expect(seen.add(9_999_999_999)).toBe(false);
  });
});
