// The rows a first load into an empty register wrote, by org nr (as a number): that load builds
// even the org nr index at its end, and a file may repeat an org nr, whose later line must find
// the row the earlier one wrote. 12 bytes a slot in two typed arrays, at most three quarters full
// (2.5 million org nrs: 48 MB), instead of a B-tree written at random for every row.
import { hashNumber } from '../../core/number-hash.js';

export class RowidsByNumber {
  private keys = new Float64Array(1 << 16).fill(-1);
  private rowids = new Uint32Array(1 << 16);
  private size = 0;

  /** Slots allocated (the memory is 12 bytes each). */
  get capacity(): number {
    return this.keys.length;
  }

  /** The rowid stored for `n`, or 0. */
  get(n: number): number {
    const mask = this.keys.length - 1;
    for (let i = hashNumber(n) & mask; ; i = (i + 1) & mask) {
      const k = this.keys[i];
      if (k === n) return this.rowids[i];
      if (k === -1) return 0;
    }
  }

  set(n: number, rowid: number): void {
    if ((this.size + 1) * 4 > this.keys.length * 3) this.grow();
    this.put(this.keys, this.rowids, n, rowid);
  }

  private put(keys: Float64Array, rowids: Uint32Array, n: number, rowid: number): void {
    const mask = keys.length - 1;
    for (let i = hashNumber(n) & mask; ; i = (i + 1) & mask) {
      if (keys[i] === n) {
        rowids[i] = rowid;
        return;
      }
      if (keys[i] === -1) {
        keys[i] = n;
        rowids[i] = rowid;
        this.size++;
        return;
      }
    }
  }

  private grow(): void {
    const [keys, rowids] = [this.keys, this.rowids];
    this.keys = new Float64Array(keys.length * 2).fill(-1);
    this.rowids = new Uint32Array(keys.length * 2);
    this.size = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== -1) this.put(this.keys, this.rowids, keys[i], rowids[i]);
  }
}
