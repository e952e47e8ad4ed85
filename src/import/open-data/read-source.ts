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
  /**
   * Sole traders found only when a record read unparsed (below) was parsed: passed on without
   * data, like errorsWithKey, and counted out of `unchanged` the same way.
   */
  personsWithKey?: number;
}

export interface ReadOptions {
  includePersons: boolean;
  strict: boolean;
  /** Called for each line that cannot be read. */
  onError: (line: number, message: string, text: string) => void;
}

/**
 * A line whose org nr its first field gives cheaply (and no sole trader's) is passed on unparsed:
 * its `key` and `fingerprint` are all the register needs when the line is unchanged since the
 * last import (most of a weekly file), and `data` parses it only when read. Parsed late, a line
 * that cannot be read is reported then (so within a batch not necessarily in line order) and
 * passed on without data, as below. Records are handed over a chunk of the file at a time.
 */
export async function* readSourceRecords(source: OpenDataSource, lines: AsyncIterable<TextLine[]>, stats: ReadStats, opts: ReadOptions): AsyncGenerator<ImportRecord[]> {
  let reader: ((line: number, text: string, out: ImportRecord[]) => void) | null = null;
  for await (const chunk of lines) {
    const out: ImportRecord[] = [];
    for (const { line, text } of chunk) {
      if (reader === null) {
        const start = parserFor(source, line, text);
        reader = lineReader(start, stats, opts);
        if (start.header) continue;
      }
      reader(line, text, out);
    }
    if (out.length > 0) yield out;
  }
}

/** Reads one line into `out` (or into nothing: an empty line, a sole trader left out, dirt without a key). */
function lineReader(start: ReturnType<typeof parserFor>, stats: ReadStats, opts: ReadOptions): (line: number, text: string, out: ImportRecord[]) => void {
  const { parse, keyOf, cheapKey, cheapPerson } = start;
  return (line, text, out) => {
    if (text.trim() === '') return;
    stats.lines++;
    const key = cheapKey(text);
    if (key !== null) {
      stats.records++;
      out.push(new LazyRecord(line, text, key, parse, stats, opts));
      return;
    }
    // A sole trader's line is left out by its identity field alone, unparsed: nothing of it is
    // imported, whatever dirt the rest holds, and an error report would repeat personal data.
    // (450,000 of Bolagsverket's 3 million lines: 1.6 s of parsing a week.)
    if (!opts.includePersons && cheapPerson(text)) {
      stats.persons++;
      return;
    }
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
      const k = keyOf(text);
      if (k !== null) {
        stats.errorsWithKey++;
        out.push({ line, data: { org_nr: k, row: null } });
      }
      return;
    }
    if (row.isPerson && !opts.includePersons) {
      stats.persons++;
      return;
    }
    stats.records++;
    out.push({ line, data: { org_nr: row.orgNr, row }, fingerprint: lineFingerprint(text) });
  };
}

type Parser = (line: number, text: string) => SourceRow;

/** A record whose line is parsed only when its data is read (one object a line: no closures). */
class LazyRecord implements ImportRecord {
  private parsed: Record<string, unknown> | undefined;
  fingerprint: number | undefined;

  constructor(
    readonly line: number,
    readonly text: string,
    readonly key: string,
    private readonly parse: Parser,
    private readonly stats: ReadStats,
    private readonly opts: ReadOptions,
  ) {
    this.fingerprint = lineFingerprint(text);
  }

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

/** The parser for the file, and whether its first line is the header (Bolagsverket's may lack it). */
function parserFor(
  source: OpenDataSource,
  line: number,
  first: string,
): {
  parse: Parser;
  header: boolean;
  keyOf: (text: string) => string | null;
  cheapKey: (text: string) => string | null;
  cheapPerson: (text: string) => boolean;
} {
  if (source === 'bolagsverket') {
    return { parse: parseBolagsverketRow, header: isBolagsverketHeader(first), keyOf: bolagsverketKey, cheapKey: bolagsverketOrgKey, cheapPerson: isBolagsverketPerson };
  }
  if (!isScbHeader(first)) throw new ImportError(line, "the first line is not the header of SCB's file (no PeOrgNr column)");
  let cols: ScbColumns;
  try {
    cols = scbColumns(first);
  } catch (e) {
    throw new ImportError(line, (e as Error).message);
  }
  return {
    parse: (l, t) => parseScbRow(l, t, cols),
    header: true,
    keyOf: (t) => tenDigits(t.split('\t')[cols.PeOrgNr] ?? ''),
    // Twelve digits, 16 first: an organisation (others are personal identity numbers).
    cheapKey: (t) => {
      const id = nthField(t, cols.PeOrgNr);
      return /^16\d{10}$/.test(id) ? id.slice(2) : null;
    },
    // Twelve digits, not 16 first: a personal identity number (parse-row.ts).
    cheapPerson: (t) => /^(?!16)\d{12}$/.test(nthField(t, cols.PeOrgNr)),
  };
}

/** Field `n` of a tab-separated line ('' past its end), found without splitting the rest. */
function nthField(text: string, n: number): string {
  let start = 0;
  for (let i = 0; i < n; i++) {
    const tab = text.indexOf('\t', start);
    if (tab === -1) return '';
    start = tab + 1;
  }
  const end = text.indexOf('\t', start);
  return end === -1 ? text.slice(start) : text.slice(start, end);
}

/** The org nr of an organisation's line (`"5566778899$ORGNR-IDORG";…`), else null (a person, or dirt). */
function bolagsverketOrgKey(text: string): string | null {
  return /^\uFEFF?"(\d{10})\$ORGNR-IDORG";/.exec(text)?.[1] ?? null;
}

/** A sole trader's line (`"196501011234$PERSON-IDORG";…`). */
function isBolagsverketPerson(text: string): boolean {
  return /^\uFEFF?"\d{12}\$PERSON-IDORG";/.test(text);
}

/** The org nr of a line that could not be read, when its first field still gives it. */
function bolagsverketKey(text: string): string | null {
  return tenDigits(/^\uFEFF?"?(\d{10,12})\$/.exec(text)?.[1] ?? '');
}

function tenDigits(raw: string): string | null {
  const digits = raw.replace(/\D/g, '');
  return digits.length === 10 || digits.length === 12 ? digits.slice(-10) : null;
}
