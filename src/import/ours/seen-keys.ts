// The org nrs a file has held so far, as bits over a hash of them: a "no" is certain, a "yes" may
// be another key's bit (at most about one in sixteen, for as many keys as the set was sized for).
// The matching thread needs only the "no": a line whose org nr no earlier line had cannot have
// been changed by the import yet, so it may be settled against the snapshot.

/** At most 2^26 bits (8 MiB), at least 2^20 (128 KiB). */
const MOST_BITS = 26;
const LEAST_BITS = 20;

export class SeenKeys {
  private readonly words: Uint32Array;
  private readonly mask: number;

  /** For about `expected` keys: 16 bits a key, so that one in sixteen lookups or fewer says "maybe". */
  constructor(expected: number) {
    const bits = Math.min(MOST_BITS, Math.max(LEAST_BITS, Math.ceil(Math.log2(Math.max(1, expected) * 16))));
    this.words = new Uint32Array(1 << (bits - 5));
    this.mask = (1 << bits) - 1;
  }

  add(key: number): void {
    const h = hash(key) & this.mask;
    this.words[h >>> 5] |= 1 << (h & 31);
  }

  /** False when the key was certainly not added; true when it may have been. */
  has(key: number): boolean {
    const h = hash(key) & this.mask;
    return (this.words[h >>> 5] & (1 << (h & 31))) !== 0;
  }
}

/** A ten-digit number (up to 2^34) mixed into 32 bits. */
function hash(key: number): number {
  const low = key >>> 0;
  const high = Math.floor(key / 4294967296);
  let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
