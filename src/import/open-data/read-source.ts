// The records of an open-data file, streamed: each line parsed by its source's parser, sole
// traders left out unless asked for, and every line that cannot be read reported (counted,
// with its line number) instead of dropped; with `strict`, the first such line stops the import.
import type { ImportRecord } from '../../store/import-types.js';
import { ImportError } from '../import-error.js';
import { isBolagsverketHeader, parseBolagsverketRow } from '../bolagsverket/parse-row.js';
import { isScbHeader, parseScbRow, type ScbColumns, scbColumns } from '../scb/parse-row.js';
import type { TextLine } from '../source/open-text.js';
import { lineFingerprint } from './fingerprint.js';
import { RowError, type SourceRow } from './source-row.js';

export type OpenDataSource = 'bolagsverket' | 'scb';

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
}

export interface ReadOptions {
  includePersons: boolean;
  strict: boolean;
  /** Called for each line that cannot be read. */
  onError: (line: number, message: string, text: string) => void;
}

export async function* readSourceRecords(source: OpenDataSource, lines: AsyncIterable<TextLine>, stats: ReadStats, opts: ReadOptions): AsyncGenerator<ImportRecord> {
  let parse: Parser | null = null;
  let keyOf: (text: string) => string | null = () => null;
  for await (const { line, text } of lines) {
    if (parse === null) {
      const start = parserFor(source, line, text);
      parse = start.parse;
      keyOf = start.keyOf;
      if (start.header) continue;
    }
    if (text.trim() === '') continue;
    stats.lines++;
    let row: SourceRow;
    try {
      row = parse(line, text);
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      stats.errors++;
      opts.onError(line, e.message, text);
      if (opts.strict) throw new ImportError(line, e.message);
      // The organisation is still in the file: passed on without data, so that it is not
      // taken for one that vanished.
      const key = keyOf(text);
      if (key !== null) {
        stats.errorsWithKey++;
        yield { line, data: { org_nr: key, row: null } };
      }
      continue;
    }
    if (row.isPerson && !opts.includePersons) {
      stats.persons++;
      continue;
    }
    stats.records++;
    yield { line, data: { org_nr: row.orgNr, row }, fingerprint: lineFingerprint(text) };
  }
}

type Parser = (line: number, text: string) => SourceRow;

/** The parser for the file, and whether its first line is the header (Bolagsverket's may lack it). */
function parserFor(source: OpenDataSource, line: number, first: string): { parse: Parser; header: boolean; keyOf: (text: string) => string | null } {
  if (source === 'bolagsverket') return { parse: parseBolagsverketRow, header: isBolagsverketHeader(first), keyOf: bolagsverketKey };
  if (!isScbHeader(first)) throw new ImportError(line, "the first line is not the header of SCB's file (no PeOrgNr column)");
  let cols: ScbColumns;
  try {
    cols = scbColumns(first);
  } catch (e) {
    throw new ImportError(line, (e as Error).message);
  }
  return { parse: (l, t) => parseScbRow(l, t, cols), header: true, keyOf: (t) => tenDigits(t.split('\t')[cols.PeOrgNr] ?? '') };
}

/** The org nr of a line that could not be read, when its first field still gives it. */
function bolagsverketKey(text: string): string | null {
  return tenDigits(/^\uFEFF?"?(\d{10,12})\$/.exec(text)?.[1] ?? '');
}

function tenDigits(raw: string): string | null {
  const digits = raw.replace(/\D/g, '');
  return digits.length === 10 || digits.length === 12 ? digits.slice(-10) : null;
}
