// How each source's lines are read: the parser, whether the first line is the header, and the
// cheap tests that find an organisation's org nr (or a sole trader) from its identity field
// alone, without parsing the line. Chosen by the file's first line, on the thread that sorts the
// lines (classify-lines.ts) and on the one that parses them (read-source.ts) alike.
import { ImportError } from '../import-error.js';
import { bolagsverketHeaderMismatch, isBolagsverketHeader, parseBolagsverketRow } from '../bolagsverket/parse-row.js';
import { isScbHeader, parseScbRow, type ScbColumns, scbColumns } from '../scb/parse-row.js';
import { unfitText } from '../../core/stored-text.js';
import { RowError, type SourceRow } from './source-row.js';
import { isPersonalNumber } from '../../core/orgnr.js';

export type OpenDataSource = 'bolagsverket' | 'scb';

export type Parser = (line: number, text: string) => SourceRow;

export interface SourceParser {
  parse: Parser;
  /** The first line is the header (Bolagsverket's may lack it; SCB's must have it). */
  header: boolean;
  /** The org nr of a line that could not be parsed, when its first field still gives it. */
  keyOf: (text: string) => string | null;
  /** An organisation's org nr from its identity field alone, else null (a person, or dirt). */
  cheapKey: (text: string) => string | null;
  /** A sole trader's line, by its identity field alone. */
  cheapPerson: (text: string) => boolean;
}

export function parserFor(source: OpenDataSource, line: number, first: string): SourceParser {
  // Lines are split at line feeds (a CR before one is dropped): such a file is one line, its
  // header first. (A data line may hold a stray CR in its free text.)
  if ((isBolagsverketHeader(first) || isScbHeader(first)) && first.includes('\r')) throw new ImportError(line, 'its lines end in a carriage return alone, which neither source writes; convert them to line feeds (or CR LF)');
  if (source === 'bolagsverket') {
    // Else every line of it, the header too, would be counted unreadable (SCB's refuses Bolagsverket's at once, as here).
    if (isScbHeader(first)) throw new ImportError(line, "this is SCB's file (its header names PeOrgNr): import it with --source scb");
    // Else any text file was "imported", every line of it unreadable, with exit 0.
    if (first.replace(/^\uFEFF/, '').trim() === '') throw new ImportError(line, 'the file is empty (its first line is blank)');
    if (!isBolagsverketHeader(first) && bolagsverketKey(first) === null) {
      throw new ImportError(line, "the first line is neither Bolagsverket's header nor one of its lines (\"5566778899$ORGNR-IDORG\";…), so this is not Bolagsverket's file");
    }
    const changed = isBolagsverketHeader(first) ? bolagsverketHeaderMismatch(first) : null;
    if (changed) throw new ImportError(line, `the header is not Bolagsverket's as this version of bolag reads it: ${changed}. Its lines are read by position, so none was read`);
    return { parse: fitting(parseBolagsverketRow), header: isBolagsverketHeader(first), keyOf: bolagsverketKey, cheapKey: bolagsverketOrgKey, cheapPerson: isBolagsverketPerson };
  }
  if (!isScbHeader(first)) {
    const bolagsverket = isBolagsverketHeader(first) || bolagsverketKey(first) !== null;
    throw new ImportError(line, bolagsverket ? "this is Bolagsverket's file (its header or lines name ORGNR-IDORG): import it with --source bolagsverket" : "the first line is not the header of SCB's file (no PeOrgNr column)");
  }
  let cols: ScbColumns;
  try {
    cols = scbColumns(first);
  } catch (e) {
    throw new ImportError(line, (e as Error).message);
  }
  return {
    parse: fitting((l, t) => parseScbRow(l, t, cols)),
    header: true,
    keyOf: (t) => tenDigits(t.split('\t')[cols.PeOrgNr] ?? ''),
    // Twelve digits, 16 first: an organisation (others are personal identity numbers).
    cheapKey: (t) => {
      const id = nthField(t, cols.PeOrgNr);
      return /^16\d{10}$/.test(id) && !isPersonalNumber(id.slice(2)) ? id.slice(2) : null;
    },
    cheapPerson: (t) => isPersonalIdentity(nthField(t, cols.PeOrgNr).replaceAll('"', '').trim()),
  };
}

/** A parser whose rows' name and city fit the register's indexes, else the line cannot be read. */
function fitting(parse: Parser): Parser {
  return (line, text) => {
    const row = parse(line, text);
    const name = unfitText(row.name);
    if (name !== null) throw new RowError(line, `the name ${name}`);
    const city = row.address === null ? null : unfitText(row.address.city);
    if (city !== null) throw new RowError(line, `the postal town ${city}`);
    return row;
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
  const key = /^\uFEFF?"(\d{10})\$ORGNR-IDORG";/.exec(text)?.[1] ?? null;
  return key === null || isPersonalNumber(key) ? null : key;
}

/**
 * A sole trader's line (`"196501011234$PERSON-IDORG";…`), by its first field alone, however it is
 * labelled, quoted or cased: a line of a person must never reach an error report.
 */
function isBolagsverketPerson(text: string): boolean {
  const first = /^\uFEFF?"?\s*(\d{10,12})\s*(?:\$([^";]*))?"?;/.exec(text);
  if (first === null) return false;
  return first[2]?.trim().toUpperCase() === 'PERSON-IDORG' || isPersonalIdentity(first[1]);
}

/**
 * A personal identity number: twelve digits not starting 16 (a century, 19 or 20), or ten (or 16
 * and ten) whose third digit is 0 or 1, a month, as no organisation's is.
 */
function isPersonalIdentity(digits: string): boolean {
  if (/^\d{12}$/.test(digits) && !digits.startsWith('16')) return true;
  return /^(16)?\d{10}$/.test(digits) && isPersonalNumber(digits.slice(-10));
}

/** The org nr of a line that could not be read, when its first field still gives it. */
function bolagsverketKey(text: string): string | null {
  return tenDigits(/^\uFEFF?"?(\d{10,12})\$/.exec(text)?.[1] ?? '');
}

function tenDigits(raw: string): string | null {
  const digits = raw.replace(/\D/g, '');
  return digits.length === 10 || digits.length === 12 ? digits.slice(-10) : null;
}
