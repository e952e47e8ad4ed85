// The org nrs a file has held so far, as bits over a hash of them: a "no" is certain, a "yes" may
// be another key's bit (about one in twenty at three million keys). The matching thread needs
// only the "no": a line whose org nr no earlier line had cannot have been changed by the import
// yet, so it may be settled against the snapshot. 8 MiB whatever the file's size.
const BITS = 26;
const MASK = (1 << BITS) - 1;

export class SeenKeys {
  private readonly words = new Uint32Array(1 << (BITS - 5));

  add(key: number): void {
    const h = hash(key);
    this.words[h >>> 5] |= 1 << (h & 31);
  }

  /** False when the key was certainly not added; true when it may have been. */
  has(key: number): boolean {
    const h = hash(key);
    return (this.words[h >>> 5] & (1 << (h & 31))) !== 0;
  }
}

/** A ten-digit number (up to 2^34) mixed into BITS bits. */
function hash(key: number): number {
  const low = key >>> 0;
  const high = Math.floor(key / 4294967296);
  let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) & MASK;
}
