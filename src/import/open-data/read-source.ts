// The records of an open-data file, streamed: batches of lines sorted out where they are read
// (classify-lines.ts, on a thread of their own in the binary), each line parsed by its source's
// parser only when the register asks for its record, sole traders left out unless asked for, and
// every line that cannot be read reported (counted, with its line number) instead of dropped;
// with `strict`, the first such line stops the import.
import { normalizeOrgNr } from '../../core/orgnr.js';
import type { ImportRecord, KeyedLines } from '../../store/import-types.js';
import { ImportError } from '../import-error.js';
import { type LineBatch, markRepeated } from './classify-lines.js';
import { type LineDecoder, lineDecoderFor } from './line-decoder.js';
import { type OpenDataSource, type Parser, parserFor, type SourceParser } from './source-parser.js';
import { RowError, type SourceRow } from './source-row.js';

export type { OpenDataSource } from './source-parser.js';

export interface ReadStats {
  /** Data lines read (header and empty lines not counted). */
  lines: number;
  /** Records passed on to the register. */
  records: number;
  /** Sole traders left out (no --include-persons). */
  persons: number;
  /** Lines that could not be read. */
  errors: number;
  /** Of those, lines whose org nr could still be read: passed on, so it is not taken as vanished. */
  errorsWithKey: number;
  /**
   * Sole traders found only when a record read unparsed (below) was parsed: passed on without
   * data, like errorsWithKey, and counted out of `unchanged` the same way.
   */
  personsWithKey?: number;
  /**
   * Sole traders' lines after the file's first of their number (plan-checked.ts): counted out of
   * `unchanged` too.
   */
  repeatedLines?: number;
  /** The data line the file ends in without a line break, if it does (LineBatch.unterminated). */
  unterminatedLine?: number;
}

export interface ReadOptions {
  includePersons: boolean;
  strict: boolean;
  /** Called for each line that cannot be read. */
  onError: (line: number, message: string, text: string) => void;
}

/**
 * A line whose org nr its first field gives cheaply (and no sole trader's) is passed on unparsed:
 * its key and fingerprint are all the register needs when the line is unchanged since the last
 * import (most of a weekly file), and its record parses it only when read. Parsed late, a line
 * that cannot be read is reported then (so within a batch not necessarily in line order) and
 * passed on without data. Every other line is parsed here, as its batch arrives.
 */
export async function* readSourceRecords(
  source: OpenDataSource,
  batches: AsyncIterable<LineBatch>,
  stats: ReadStats,
  opts: ReadOptions,
  /** Takes back a batch's memory once the import is done with it (LinesAhead.giveBack). */
  giveBack: (b: LineBatch) => void = () => {},
): AsyncGenerator<KeyedLines> {
  const decoder = lineDecoderFor(source);
  let parser: SourceParser | null = null;
  for await (const b of batches) {
    if (b.first) parser = parserFor(source, b.first.line, b.first.text);
    stats.lines += b.dataLines;
    stats.persons += b.persons;
    if (b.unterminated) stats.unterminatedLine = b.unterminated;
    if (b.length > 0) yield new SourceLines(b, parser!, decoder, stats, opts, giveBack).kept();
    else giveBack(b);
  }
}

/** A batch of lines, its records made on demand. */
class SourceLines implements KeyedLines {
  readonly keyed = true;
  length: number;
  keys: Float64Array;
  prints: Float64Array;
  repeated: Uint8Array;
  private lines: Uint32Array;
  private starts: Uint32Array;
  private ends: Uint32Array;
  /** The records of the lines parsed here (those without a key read unparsed). */
  private made: (ImportRecord | undefined)[] | null = null;
  private readonly bytes: Uint8Array;
  private readonly batch: LineBatch;

  constructor(
    b: LineBatch,
    private readonly parser: SourceParser,
    private readonly decoder: LineDecoder,
    private readonly stats: ReadStats,
    private readonly opts: ReadOptions,
    private readonly giveBack: (b: LineBatch) => void,
  ) {
    this.batch = b;
    ({ length: this.length, keys: this.keys, prints: this.prints, repeated: this.repeated, lines: this.lines, starts: this.starts, ends: this.ends, bytes: this.bytes } = b);
  }

  /** The batch once its lines without a key are parsed: those that give no record left out. */
  kept(): this {
    let dropped: Uint8Array | null = null;
    let parsedKeys = false;
    for (let i = 0; i < this.length; i++) {
      if (this.keys[i] === this.keys[i]) {
        this.stats.records++;
        continue;
      }
      const record = this.parseLine(i);
      if (record === null) {
        (dropped ??= new Uint8Array(this.length))[i] = 1;
        continue;
      }
      (this.made ??= [])[i] = record;
      // Settled like any line with its fingerprint when its org nr is listed (ListedFingerprints);
      // a sole trader's never is: the first of a person's lines stands (plan-checked.ts), and a
      // first line settled here would leave the second to be planned as if it were the first.
      const settles = record.fingerprint !== undefined && !(record.data.row as SourceRow | null)?.isPerson;
      const key = settles ? normalizeOrgNr(String(record.data.org_nr ?? '')) : null;
      if (key !== null) {
        this.keys[i] = Number(key);
        parsedKeys = true;
      }
    }
    if (dropped) this.leaveOut(dropped);
    if (parsedKeys) markRepeated(this.keys, this.repeated);
    return this;
  }

  record(i: number): ImportRecord {
    const made = this.made?.[i];
    if (made) return made;
    return new LazyRecord(this.lines[i], this.text(i), String(this.keys[i]).padStart(10, '0'), this.prints[i], this.parser.parse, this.stats, this.opts);
  }

  /** No record is asked for after this: the batch's memory goes back to its reader. */
  release(): void {
    this.giveBack(this.batch);
  }

  private text(i: number): string {
    return this.decoder.decode(this.bytes.subarray(this.starts[i], this.ends[i]));
  }

  /** A line without a key read unparsed, read as it is read now; null when it gives no record. */
  private parseLine(i: number): ImportRecord | null {
    const { stats, opts, parser } = this;
    const line = this.lines[i];
    const text = this.text(i);
    let row: SourceRow;
    try {
      row = parser.parse(line, text);
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      // A line with a key is parsed later, when the import asks for it: one before this line
      // that cannot be read either is the first, where --strict stops.
      if (opts.strict) this.strictStopBefore(i);
      stats.errors++;
      opts.onError(line, e.message, text);
      if (opts.strict) throw new ImportError(line, e.message);
      // The organisation is still in the file: passed on without data, so that it is not
      // taken for one that vanished.
      const k = parser.keyOf(text);
      if (k === null) return null;
      stats.errorsWithKey++;
      return { line, data: { org_nr: k, row: null } };
    }
    if (row.isPerson && !opts.includePersons) {
      stats.persons++;
      return null;
    }
    stats.records++;
    return { line, data: { org_nr: row.orgNr, row }, fingerprint: this.prints[i] };
  }

  /** With --strict: stops at the first line with a key before line i that cannot be read, if any. */
  private strictStopBefore(i: number): void {
    for (let j = 0; j < i; j++) {
      if (this.keys[j] !== this.keys[j] || this.made?.[j]) continue;
      const text = this.text(j);
      try {
        this.parser.parse(this.lines[j], text);
      } catch (e) {
        if (!(e instanceof RowError)) throw e;
        this.stats.errors++;
        this.opts.onError(this.lines[j], e.message, text);
        throw new ImportError(this.lines[j], e.message);
      }
    }
  }

  /** Drops the lines marked (rare: dirt without an org nr, a sole trader found by parsing). */
  private leaveOut(dropped: Uint8Array): void {
    const keep: number[] = [];
    for (let i = 0; i < this.length; i++) if (dropped[i] === 0) keep.push(i);
    const pick = <T extends Float64Array | Uint32Array | Uint8Array>(a: T): T => {
      const out = new (a.constructor as new (n: number) => T)(keep.length);
      keep.forEach((from, to) => (out[to] = a[from]));
      return out;
    };
    this.keys = pick(this.keys);
    this.prints = pick(this.prints);
    this.repeated = pick(this.repeated);
    this.lines = pick(this.lines);
    this.starts = pick(this.starts);
    this.ends = pick(this.ends);
    if (this.made) this.made = keep.map((from) => this.made![from]);
    this.length = keep.length;
  }
}

/** A record whose line is parsed only when its data is read (one object a line: no closures). */
class LazyRecord implements ImportRecord {
  private parsed: Record<string, unknown> | undefined;

  constructor(
    readonly line: number,
    readonly text: string,
    readonly key: string,
    public fingerprint: number | undefined,
    private readonly parse: Parser,
    private readonly stats: ReadStats,
    private readonly opts: ReadOptions,
  ) {}

  get data(): Record<string, unknown> {
    return (this.parsed ??= this.read());
  }

  private read(): Record<string, unknown> {
    const { stats, opts, line, text } = this;
    try {
      const row = this.parse(line, text);
      if (!row.isPerson || opts.includePersons) return { org_nr: row.orgNr, row };
      stats.records--;
      stats.persons++;
      stats.personsWithKey = (stats.personsWithKey ?? 0) + 1;
      this.fingerprint = undefined;
      return { org_nr: row.orgNr, row: null };
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      stats.records--;
      stats.errors++;
      opts.onError(line, e.message, text);
      if (opts.strict) throw new ImportError(line, e.message);
      stats.errorsWithKey++;
      // Never remembered as a line already read: it is reported again next time.
      this.fingerprint = undefined;
      return { org_nr: this.key, row: null };
    }
  }
}
