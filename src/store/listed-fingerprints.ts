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
import { normalizeOrgNr } from '../core/orgnr.js';
import { type ImportBatch, type ImportRecord, isKeyedLines, isSettledLines, type KeyedLines, repeatedKeys } from './import-types.js';

type Seen = { has(rowid: number): boolean };

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

  /** One listed row; org nrs (as text or as a number) ascending (the index's order), rowids below 2^32. */
  add(orgNr: string | number, rowid: number, fingerprint: number): void {
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
    return this.findKey(Number(orgNr));
  }

  /** The entry of this org nr as a number, or -1. */
  private findKey(key: number): number {
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

  /**
   * The batch less its lines unchanged since the last import (the fingerprint stored for their
   * org nr is theirs); `unchanged` is told each settled row. A key the batch repeats is left to be
   * planned line by line: its earlier line may change what the later one compares with.
   */
  withoutUnchanged(batch: ImportBatch, unchanged: (rowid: number) => void): ImportRecord[] {
    if (isSettledLines(batch)) return [];
    if (isKeyedLines(batch)) return this.withoutUnchangedLines(batch, unchanged);
    const keys = batch.map((r) => (r.fingerprint === undefined ? null : (r.key ?? normalizeOrgNr(String(r.data.org_nr ?? '')))));
    const repeated = repeatedKeys(keys);
    return batch.filter((r, i) => {
      const key = keys[i];
      if (key === null || repeated.has(key)) return true;
      const entry = this.find(key);
      if (entry < 0 || this.prints[entry] !== r.fingerprint) return true;
      unchanged(this.rowids[entry]);
      return false;
    });
  }

  /** The same for lines read ahead: only the others' records are made. */
  private withoutUnchangedLines(batch: KeyedLines, unchanged: (rowid: number) => void): ImportRecord[] {
    const { keys, prints, repeated } = batch;
    const out: ImportRecord[] = [];
    for (let i = 0; i < batch.length; i++) {
      const key = keys[i];
      // NaN (no key known unread) is never equal to itself.
      if (key === key && repeated[i] === 0) {
        const entry = this.findKey(key);
        if (entry >= 0 && this.prints[entry] === prints[i]) {
          unchanged(this.rowids[entry]);
          continue;
        }
      }
      out.push(batch.record(i));
    }
    batch.release();
    return out;
  }

  /**
   * The vanished step's rows: those listed that `seen` does not hold, in pages. None when more
   * are gone than `limit` allows (ImportOptions.vanished.limit); `withheld` then says how many.
   */
  vanished(
    seen: Seen,
    limit: ((listed: number) => number) | undefined,
    spare: ((orgNr: number) => boolean) | undefined = undefined,
  ): { pages: Iterable<number[]>; withheld: number } {
    let gone = 0;
    for (let i = 0; i < this.size; i++) if (!seen.has(this.rowids[i]) && !spare?.(this.keys[i])) gone++;
    if (limit !== undefined && gone > limit(this.size)) return { pages: [], withheld: gone };
    return { pages: this.unseenPages(seen, spare), withheld: 0 };
  }

  /** The listed rows `seen` does not hold (nor `spare` keeps), in org nr order, a page at a time. */
  *unseenPages(seen: Seen, spare?: (orgNr: number) => boolean, pageSize = 10_000): Generator<number[]> {
    let page: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const rowid = this.rowids[i];
      if (seen.has(rowid) || spare?.(this.keys[i])) continue;
      page.push(rowid);
      if (page.length === pageSize) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }
}
