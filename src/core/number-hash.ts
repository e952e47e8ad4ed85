// A 32-bit hash of a non-negative integer below 2^53, for open-addressed tables of numbers.

/** Both halves of the number mixed (Murmur3's finaliser), so that numbers that differ only in their high digits spread too. */
export function hashNumber(n: number): number {
  let h = Math.imul((n >>> 0) ^ Math.floor(n / 4294967296), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
