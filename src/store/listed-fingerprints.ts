// The fingerprints of every row a source lists, read once when its weekly import starts (one
// scan of the covering index, in org nr order) and held in three typed arrays, 20 bytes a row:
// an unchanged line (most of a week) is then settled by a binary search, where each batch read
// its keys' pages of an index larger than the page cache; and the rows the file no longer lists
// are the entries the import never saw, without a second scan at its end.
//
// The arrays stand for the stored column: every fingerprint the import writes is written here
// too (`set`), so a key that a later line repeats compares with what the earlier one stored.
// Another process importing the same source at the same time is not followed; two imports of one
// source interleave batch by batch, and which line of a company wins is theirs to race for anyway.

export class ListedFingerprints {
  private readonly keys: Float64Array;
  private readonly prints: Float64Array;
  private readonly rowids: Uint32Array;
  private size = 0;

  /** Room for `capacity` rows, to be added in ascending org nr order. */
  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.prints = new Float64Array(capacity);
    this.rowids = new Uint32Array(capacity);
  }

  get length(): number {
    return this.size;
  }

  /** One listed row; org nrs ascending (the index's order), rowids below 2^32. */
  add(orgNr: string, rowid: number, fingerprint: number): void {
    const key = Number(orgNr);
    if (this.size === this.keys.length) throw new Error('more listed rows than counted: the register changed while they were read');
    if (this.size > 0 && key <= this.keys[this.size - 1]) throw new Error(`listed rows out of order at ${orgNr}`);
    if (rowid > 0xffffffff) throw new Error(`row number ${rowid} is beyond what the fingerprints hold`);
    this.keys[this.size] = key;
    this.prints[this.size] = fingerprint;
    this.rowids[this.size] = rowid;
    this.size++;
  }

  /** The entry of this org nr (ten digits), or -1. */
  find(orgNr: string): number {
    const key = Number(orgNr);
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keys[mid];
      if (k < key) lo = mid + 1;
      else if (k > key) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  fingerprint(entry: number): number {
    return this.prints[entry];
  }

  rowid(entry: number): number {
    return this.rowids[entry];
  }

  /** The fingerprint the import just stored for this org nr (nothing when the row was not listed). */
  set(orgNr: string, fingerprint: number): void {
    const entry = this.find(orgNr);
    if (entry >= 0) this.prints[entry] = fingerprint;
  }

  /** How many listed rows `seen` does not hold. */
  unseenCount(seen: { has(rowid: number): boolean }): number {
    let n = 0;
    for (let i = 0; i < this.size; i++) if (!seen.has(this.rowids[i])) n++;
    return n;
  }

  /** Whether the vanished step may mark the rows not seen (ImportOptions.vanished.limit). */
  vanishedWithinLimit(seen: { has(rowid: number): boolean }, limit: ((listed: number) => number) | undefined): { gone: number; allowed: boolean } {
    const gone = this.unseenCount(seen);
    return { gone, allowed: limit === undefined || gone <= limit(this.size) };
  }

  /** The listed rows `seen` does not hold, in org nr order, a page at a time. */
  *unseenPages(seen: { has(rowid: number): boolean }, pageSize = 10_000): Generator<number[]> {
    let page: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const rowid = this.rowids[i];
      if (seen.has(rowid)) continue;
      page.push(rowid);
      if (page.length === pageSize) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }
}
