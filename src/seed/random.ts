// A small seeded PRNG (sfc32) and the distributions the generator draws from. Seeded, so the
// same seed gives the same register on every machine; Math.random is never used here.

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    // xmur3 string hash to four 32-bit words of state
    let h = 1779033703 ^ String(seed).length;
    const s = String(seed);
    for (let i = 0; i < s.length; i++) {
      h = Math.imul(h ^ s.charCodeAt(i), 3432918353);
      h = (h << 13) | (h >>> 19);
    }
    const next = () => {
      h = Math.imul(h ^ (h >>> 16), 2246822507);
      h = Math.imul(h ^ (h >>> 13), 3266489909);
      return (h ^= h >>> 16) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 15; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  logNormal(median: number, sigma: number): number {
    return median * Math.exp(this.normal(0, sigma));
  }

  digits(n: number): string {
    // The same draws as one string per digit, as one number: the register draws millions.
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 10 + Math.floor(this.next() * 10);
    return String(v).padStart(n, '0');
  }
}

/** Draws from a fixed set of weighted items in O(log n). */
export class WeightedTable<T> {
  private readonly cumulative: number[] = [];
  private readonly total: number;

  constructor(private readonly items: readonly T[], weight: (item: T) => number) {
    let sum = 0;
    for (const item of items) {
      sum += Math.max(0, weight(item));
      this.cumulative.push(sum);
    }
    this.total = sum;
  }

  draw(random: Random): T {
    const x = random.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo];
  }
}

interface Shares {
  keys: string[];
  weights: number[];
  total: number;
}

/** The shares objects' keys and total, made once (a for…in per draw was a tenth of drawing an identity). */
const SHARES = new WeakMap<object, Shares>();

function sharesOf(shares: Readonly<Record<string, number>>): Shares {
  let s = SHARES.get(shares);
  if (!s) {
    const keys: string[] = [];
    const weights: number[] = [];
    let total = 0;
    for (const k in shares) {
      keys.push(k);
      weights.push(shares[k]);
      total += shares[k];
    }
    SHARES.set(shares, (s = { keys, weights, total }));
  }
  return s;
}

export function weighted<K extends string>(random: Random, shares: Readonly<Record<K, number>>): K {
  const { keys, weights, total } = sharesOf(shares);
  let x = random.next() * total;
  for (let i = 0; i < keys.length; i++) {
    x -= weights[i];
    if (x < 0) return keys[i] as K;
  }
  return keys[0] as K;
}
