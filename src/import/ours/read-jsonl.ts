// The records of our JSONL, a line each, unparsed (JsonlRecord): empty lines and a BOM skipped.
// Apart from read-records.ts so that the matching thread reads the file without the CSV reader
// and the record schema (zod) it needs.
import type { ImportRecord } from '../../store/import-types.js';
import { readLinesSync } from '../read-lines.js';
import { JsonlRecord } from './jsonl-record.js';

type Line = { line: number; text: string };

export function* jsonlRecords(first: Line, rest: Iterator<Line>): Generator<ImportRecord> {
  for (let r: IteratorResult<Line> = { done: false, value: first }; !r.done; r = rest.next()) {
    const t = r.value.text.replace(/^\uFEFF/, '').trim();
    if (t === '') continue;
    // Parsed when its data is first read: a line equal to the stored record never is.
    yield new JsonlRecord(r.value.line, t);
  }
}

/** A JSONL file's records (the caller knows it is JSONL: read-records.ts detectFormat). */
export function* readJsonlRecords(path: string): Generator<ImportRecord> {
  const lines = readLinesSync(path);
  const first = lines.next();
  if (!first.done) yield* jsonlRecords(first.value, lines);
}
