// A set of row numbers as a bitmap: the rows an import saw, a few hundred kilobytes for millions.
export class RowidSet {
  private bits = new Uint8Array(1 << 16);

  add(rowid: number): void {
    const byte = rowid >>> 3;
    if (byte >= this.bits.length) {
      const grown = new Uint8Array(Math.max(this.bits.length * 2, byte + 1));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[byte] |= 1 << (rowid & 7);
  }

  has(rowid: number): boolean {
    const byte = rowid >>> 3;
    return byte < this.bits.length && (this.bits[byte] & (1 << (rowid & 7))) !== 0;
  }
}
