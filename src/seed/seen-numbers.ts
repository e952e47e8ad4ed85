// A set of non-negative integers below 2^53 in an open-addressed Float64Array: the seeder marks
// every org nr it hands out (1.2 million), and a Set of their strings was half of drawing them
// (hashing each string, and a hash table of a million heap objects for the collector to walk).
import { hashNumber } from '../core/number-hash.js';

export class SeenNumbers {
  private slots = new Float64Array(1 << 16).fill(-1);
  private size = 0;

  /** Adds `n`; false when it was there already. */
  add(n: number): boolean {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    return this.put(this.slots, n);
  }

  private put(slots: Float64Array, n: number): boolean {
    const mask = slots.length - 1;
    for (let i = hashNumber(n) & mask; ; i = (i + 1) & mask) {
      const v = slots[i];
      if (v === n) return false;
      if (v === -1) {
        slots[i] = n;
        this.size++;
        return true;
      }
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2).fill(-1);
    this.size = 0;
    for (let i = 0; i < old.length; i++) if (old[i] !== -1) this.put(this.slots, old[i]);
  }
}
