// Company records as lines of an export file, in the CSV dialect of src/core/csv.ts or as JSONL
// in the shape the API returns (contract §2.6). The columns are fixed by the export's fields
// and filters, never by the first row. Rows are encoded a slice at a time into one buffer
// with the byte offset where each row ends, so that parts can be cut at exact row counts.
import { pickFields, type Company } from '../core/company.js';
import { companyCsvColumns, CSV_ARRAY_JOINER, CSV_BOM, CSV_LINE_END, CSV_SEPARATOR, csvField, csvHeader, type CsvValue } from '../core/csv.js';
import type { ExportFormat } from '../core/values.js';

export interface RowEncoder {
  /** What every part file starts with: the BOM and header row for CSV, nothing for JSONL. */
  readonly preamble: string;
  /** One record, without its line end. */
  encode(company: Company): string;
  /** CRLF for CSV, LF for JSONL; written as bytes after each record. */
  readonly lineEnd: string;
  readonly extension: string;
}

export interface EncoderOptions {
  /** The export's `fields` (id is always included), or null for every field. */
  fields: readonly string[] | null;
  /** The filters have `near`: records carry distance_km. */
  distance: boolean;
}

/** Encoded rows: `bytes` holds them all, row i ends at `ends[i]`. */
export interface EncodedSlice {
  bytes: Uint8Array;
  ends: Uint32Array;
  rows: number;
}

export function rowEncoder(format: ExportFormat, opts: EncoderOptions): RowEncoder {
  const fields = opts.fields ?? undefined;
  if (format === 'csv') {
    const columns = companyCsvColumns({ fields, distance: opts.distance });
    return { preamble: CSV_BOM + csvHeader(columns), encode: csvLineEncoder(columns), lineEnd: CSV_LINE_END, extension: 'csv' };
  }
  return { preamble: '', encode: (c) => JSON.stringify(pickFields(c, fields)), lineEnd: '\n', extension: 'jsonl' };
}

/**
 * csvRow of src/core/csv.ts (without the line end) compiled for a fixed column list: each column reads its dotted
 * path directly instead of flattening every record into a new object first. Same output
 * (the export tests compare it with csvRow): an array is joined with commas, a missing or
 * null value (or a null parent such as `location`) is an empty field.
 */
export function csvLineEncoder(columns: readonly string[]): (record: Company) => string {
  // Compiled to one expression per column: this runs for every row of every CSV export.
  const parts = columns.map((column, i) => {
    const path = column.split('.');
    if (path.length === 1) return `F(L(r[${JSON.stringify(path[0])}]))`;
    if (path.length === 2) {
      return `((o = r[${JSON.stringify(path[0])}]) !== null && typeof o === 'object' && !Array.isArray(o) ? F(L(o[${JSON.stringify(path[1])}])) : '')`;
    }
    return `F(G[${i}](r))`;
  });
  const getters = columns.map((column) => pathGetter(column.split('.')));
  // An array joined once makes one flat string; a chain of + would build a tree of cons
  // strings per row, several times the garbage.
  const body = `let o; return [${parts.join(', ')}].join(${JSON.stringify(CSV_SEPARATOR)});`;
  const compiled = new Function('F', 'L', 'G', `return (r) => { ${body} };`) as (
    f: typeof field,
    l: typeof leaf,
    g: typeof getters,
  ) => (record: Company) => string;
  return compiled(field, leaf, getters);
}

/** csvField, without its quoting test for numbers and booleans (whose text never needs quotes). */
function field(value: CsvValue): string {
  if (typeof value === 'string') return csvField(value);
  return value === null || value === undefined ? '' : String(value);
}

function leaf(value: unknown): CsvValue {
  if (Array.isArray(value)) return value.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v))).join(CSV_ARRAY_JOINER);
  if (value !== null && typeof value === 'object') return undefined; // flattened into deeper columns
  return value as CsvValue;
}

function pathGetter(path: string[]): (record: object) => CsvValue {
  if (path.length === 1) {
    const [key] = path;
    return (r) => leaf((r as Record<string, unknown>)[key]);
  }
  if (path.length === 2) {
    const [outer, inner] = path;
    return (r) => {
      const o = (r as Record<string, unknown>)[outer];
      return o !== null && typeof o === 'object' && !Array.isArray(o) ? leaf((o as Record<string, unknown>)[inner]) : undefined;
    };
  }
  return (r) => {
    let v: unknown = r;
    for (const key of path) {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
      v = (v as Record<string, unknown>)[key];
    }
    return leaf(v);
  };
}

/**
 * Encodes records into one buffer of its own (transferable to another thread): each line is
 * written straight into the buffer, which grows when a line might not fit. `allocate` may hand
 * out a recycled buffer; by default each slice gets a new one.
 */
export function encodeSlice(
  companies: readonly Company[],
  encoder: RowEncoder,
  allocate: (bytes: number) => Uint8Array = (n) => new Uint8Array(new ArrayBuffer(n)),
  sizeHint = 64 * 1024,
): EncodedSlice {
  const ends = new Uint32Array(companies.length);
  // The line end as bytes, copied after each record (no string concatenation per row).
  const lineEnd = Buffer.from(encoder.lineEnd, 'utf8');
  const extra = lineEnd.length;
  let bytes = allocate(Math.max(1024, sizeHint));
  let view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  for (let i = 0; i < companies.length; i++) {
    const line = encoder.encode(companies[i]);
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    if (view.length - offset < line.length * 3 + extra) {
      const bigger = allocate(Math.max(view.length * 2, offset + line.length * 3 + extra));
      bigger.set(bytes.subarray(0, offset));
      bytes = bigger;
      view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    offset += view.write(line, offset, 'utf8');
    for (let j = 0; j < extra; j++) view[offset++] = lineEnd[j];
    ends[i] = offset;
  }
  return { bytes: bytes.subarray(0, offset), ends, rows: companies.length };
}
