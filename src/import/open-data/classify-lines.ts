// The lines of an open-data file sorted out where they are read, in batches of whole lines: for
// each data line its number, its bytes, its fingerprint and, when the identity field alone gives
// it, its org nr; sole traders' lines counted and left out (unless asked for). In the binary this
// runs on a thread of its own (read-thread.ts), a few batches ahead of the import: the importing
// thread then gets numbers, settles most of a weekly file's lines by them, and decodes only the
// lines it must parse.
import { ImportError } from '../import-error.js';
import { lineFingerprint } from './fingerprint.js';
import { type OpenDataSource, parserFor, type SourceParser } from './source-parser.js';
import { encodingOf, lineDecoderFor } from './line-decoder.js';

export interface ClassifyOptions {
  source: OpenDataSource;
  includePersons: boolean;
  /** Lines a batch: the register's batch (ImportOptions.batchSize). */
  batchSize: number;
}

/**
 * Memory for a batch of at least this many bytes: a new buffer, or one a batch handed over
 * earlier was made in and its reader gave back (read-thread.ts), so that a long import does not
 * leave hundreds of megabytes of used buffers waiting for the importing thread's collector.
 */
export type BufferFor = (bytes: number) => ArrayBuffer;

/**
 * One batch: views of one buffer, and numbers, so that a thread hands it over (and gets it back
 * to use again) without copying.
 */
export interface LineBatch {
  /** The memory of every array below. */
  buffer: ArrayBuffer;
  /** The bytes of the batch's lines. */
  bytes: Uint8Array;
  /** Line i's text is `bytes` from starts[i] to ends[i] (its CR, LF and the file's BOM left out). */
  starts: Uint32Array;
  ends: Uint32Array;
  /** Line numbers in the text file, from 1. */
  lines: Uint32Array;
  /** An organisation's org nr as a number; NaN when only parsing the line tells (dirt, or a sole trader kept). */
  keys: Float64Array;
  /** lineFingerprint of the line's text. */
  prints: Float64Array;
  /** 1 where the batch holds the line's org nr (keys) more than once. */
  repeated: Uint8Array;
  length: number;
  /** Data lines read since the last batch (header and empty lines not counted), sole traders left out included. */
  dataLines: number;
  /** Sole traders left out since the last batch, by their identity field. */
  persons: number;
  /** Uncompressed bytes of the file read so far. */
  bytesRead: number;
  /** In the first batch: the file's first line, by which the parsers are chosen (SourceParser). */
  first?: { line: number; text: string };
  /** In the last batch: the number of the data line the file ends in without a line break, if it does (a file cut short?). */
  unterminated?: number;
}

const LF = 10;
const CR = 13;

export async function* classifyLines(chunks: AsyncIterable<Uint8Array>, opts: ClassifyOptions, bufferFor: BufferFor = (bytes) => new ArrayBuffer(bytes)): AsyncGenerator<LineBatch> {
  const utf8 = encodingOf(opts.source) === 'utf-8';
  // A line at a time: LF is never part of a multi-byte UTF-8 character, so a line decodes alone as
  // it would in the stream. The file's BOM is left out by hand (below), a BOM further on kept as text.
  const decoder = lineDecoderFor(opts.source);
  const size = opts.batchSize;
  // The bytes read and not yet handed over: the batch's lines, then what follows them.
  let buf = new Uint8Array(1 << 20);
  let used = 0;
  let scanFrom = 0;
  let lineNo = 0;
  let bytesRead = 0;
  let parser: SourceParser | null = null;
  let first: LineBatch['first'];
  let n = 0;
  let dataLines = 0;
  let persons = 0;
  const starts = new Uint32Array(size);
  const ends = new Uint32Array(size);
  const lines = new Uint32Array(size);
  const keys = new Float64Array(size);
  const prints = new Float64Array(size);

  const line = (s: number, e: number): void => {
    if (e > s && buf[e - 1] === CR) e--;
    lineNo++;
    if (lineNo === 1 && utf8 && e - s >= 3 && buf[s] === 0xef && buf[s + 1] === 0xbb && buf[s + 2] === 0xbf) s += 3;
    const text = decoder.decode(buf.subarray(s, e));
    if (parser === null) {
      parser = parserFor(opts.source, lineNo, text);
      first = { line: lineNo, text };
      if (parser.header) return;
    }
    if (text.trim() === '') return;
    dataLines++;
    const key = parser.cheapKey(text);
    // A sole trader's line is left out by its identity field alone, unparsed: nothing of it is
    // imported, whatever dirt the rest holds, and an error report would repeat personal data.
    if (key === null && !opts.includePersons && parser.cheapPerson(text)) {
      persons++;
      return;
    }
    starts[n] = s;
    ends[n] = e;
    lines[n] = lineNo;
    keys[n] = key === null ? Number.NaN : Number(key);
    prints[n] = lineFingerprint(text);
    n++;
  };

  /** The batch of the lines before `end` (copied out into its buffer), the rest moved to the front. */
  const batch = (end: number): LineBatch => {
    const from = n > 0 ? starts[0] : end;
    for (let i = 0; i < n; i++) {
      starts[i] -= from;
      ends[i] -= from;
    }
    const out = batchIn(bufferFor(batchBytes(n, end - from)), n, end - from);
    out.keys.set(keys.subarray(0, n));
    out.prints.set(prints.subarray(0, n));
    out.starts.set(starts.subarray(0, n));
    out.ends.set(ends.subarray(0, n));
    out.lines.set(lines.subarray(0, n));
    markRepeated(out.keys, out.repeated);
    out.bytes.set(buf.subarray(from, end));
    Object.assign(out, { dataLines, persons, bytesRead }, first ? { first } : {});
    first = undefined;
    buf.copyWithin(0, end, used);
    used -= end;
    scanFrom -= end;
    n = dataLines = persons = 0;
    return out;
  };

  for await (const chunk of chunks) {
    bytesRead += chunk.length;
    if (used + chunk.length > buf.length) {
      // Lines before the batch's first are done with; a batch of very long lines grows the buffer.
      if (n === 0) {
        buf.copyWithin(0, scanFrom, used);
        used -= scanFrom;
        scanFrom = 0;
      } else if (used + chunk.length > MAX_BUFFER_BYTES) {
        // A batch's lines held up by what is left out after them (blank lines, sole traders): a
        // zip of one line and 500 MB of newlines grew the buffer past a gigabyte. They go now,
        // as a batch of their own, and what was left out goes with them.
        yield batch(scanFrom);
      }
      if (used + chunk.length > buf.length) {
        const grown = new Uint8Array(Math.max(buf.length * 2, used + chunk.length));
        grown.set(buf.subarray(0, used));
        buf = grown;
      }
    }
    // The bytes from scanFrom to here hold no LF (searched with the chunks before): a long line
    // is searched once, not again from its start with every chunk (a 100 MB line took 25 s).
    const searched = used;
    buf.set(chunk, used);
    used += chunk.length;
    // Searched within what was read: past it lie the bytes of lines already handed over.
    let read = buf.subarray(0, used);
    for (let nl = read.indexOf(LF, Math.max(scanFrom, searched)); nl !== -1; nl = read.indexOf(LF, scanFrom)) {
      line(scanFrom, nl);
      scanFrom = nl + 1;
      if (n === size) {
        yield batch(scanFrom);
        read = buf.subarray(0, used);
      }
    }
    if (used - scanFrom > MAX_LINE_BYTES) throw new ImportError(lineNo + 1, tooLong(opts.source));
  }
  // A last line without its newline counts too.
  let unterminated: number | undefined;
  if (scanFrom < used) {
    const before = dataLines;
    line(scanFrom, used);
    scanFrom = used;
    if (dataLines > before) unterminated = lineNo;
  }
  if (parser === null) throw new ImportError(1, 'the file is empty');
  if (n > 0 || dataLines > 0 || first) yield Object.assign(batch(used), unterminated ? { unterminated } : {});
}

/**
 * No line of either source comes near this (their longest field, the business description, is a
 * few kilobytes); a file with such a line is not the source's file, and reading the line whole
 * would take the reading thread past its memory.
 */
export const MAX_LINE_BYTES = 4 << 20;

/**
 * The read buffer grows past this only for a line in progress: a batch of 2,000 lines of either
 * source takes a few megabytes, and lines left out between a batch's lines are not kept past it.
 */
const MAX_BUFFER_BYTES = 32 << 20;

function tooLong(source: OpenDataSource): string {
  return `is longer than ${MAX_LINE_BYTES >> 20} MiB, which no line of ${source === 'scb' ? "SCB's" : "Bolagsverket's"} file is: is this the right file?`;
}

/** The bytes of a batch of `n` lines of `textBytes` bytes: its arrays, widest first (aligned), then the text. */
function batchBytes(n: number, textBytes: number): number {
  return n * 29 + textBytes;
}

/** A batch's views of its buffer (batchBytes), the counts still to fill. */
function batchIn(buffer: ArrayBuffer, n: number, textBytes: number): LineBatch {
  return {
    buffer,
    keys: new Float64Array(buffer, 0, n),
    prints: new Float64Array(buffer, n * 8, n),
    starts: new Uint32Array(buffer, n * 16, n),
    ends: new Uint32Array(buffer, n * 20, n),
    lines: new Uint32Array(buffer, n * 24, n),
    repeated: new Uint8Array(buffer, n * 28, n),
    bytes: new Uint8Array(buffer, n * 29, textBytes),
    length: n,
    dataLines: 0,
    persons: 0,
    bytesRead: 0,
  };
}

/** Sets 1 for each key that occurs more than once among `keys`, 0 for the others (NaN never repeats). */
export function markRepeated(keys: Float64Array, repeated: Uint8Array): void {
  repeated.fill(0);
  const firstAt = new Map<number, number>();
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (k !== k) continue;
    const at = firstAt.get(k);
    if (at === undefined) firstAt.set(k, i);
    else repeated[at] = repeated[i] = 1;
  }
}
