// The CSV dialect of bolag (contract §2.6), shared by `bolag search --format csv` and the
// server's export worker: `;` separator, UTF-8 with a byte-order mark, a header row, RFC 4180
// quoting and CRLF line ends, nested objects flattened with dots (`address.city`), arrays
// joined with commas, null and missing values as empty fields. Text cells that a spreadsheet
// would read as a formula are neutralised (OWASP "CSV injection"): see neutraliseCell.
import { COMPANY_FIELDS } from './company.js';

export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';
export const CSV_LINE_END = '\r\n';
/** How array values (sni_codes) are joined inside one field. */
export const CSV_ARRAY_JOINER = ',';

/** Sub-fields of the nested company fields, in the order they appear as columns. */
const NESTED_COLUMNS: Record<string, readonly string[]> = {
  address: ['street', 'postal_code', 'city'],
  category: ['slug', 'name'],
  location: ['lat', 'lng'],
  latest_financials: [
    'fiscal_year',
    'period_start',
    'period_end',
    'net_revenue',
    'profit',
    'equity_ratio',
    'total_assets',
    'employees',
    'currency',
  ],
};

function expandField(field: string): string[] {
  const sub = NESTED_COLUMNS[field];
  return sub ? sub.map((s) => `${field}.${s}`) : [field];
}

/**
 * The columns of a company CSV, fixed by the query rather than by the first row, so that a
 * null `location` on row one does not lose the `location.lat` column for the rest of the file.
 * `fields` as in GET /companies (id always first); `distance` when the query has `near`;
 * `expand` when it has `expand=latest_financials`.
 */
export function companyCsvColumns(opts: { fields?: readonly string[]; distance?: boolean; expand?: boolean } = {}): string[] {
  const fields = opts.fields ? ['id', ...opts.fields.filter((f) => f !== 'id')] : [...COMPANY_FIELDS];
  const columns = fields.flatMap(expandField);
  // Last unless `fields` names them (they may be named with near / expand): once either way.
  if (opts.distance && !fields.includes('distance_km')) columns.push('distance_km');
  if (opts.expand && !fields.includes('latest_financials')) columns.push(...expandField('latest_financials'));
  return columns;
}

export type CsvValue = string | number | boolean | null | undefined;

/**
 * Flattens nested objects into dotted keys and joins arrays: `{address: {city: 'Lund'}}`
 * becomes `{'address.city': 'Lund'}`. A null object stays as one null key (`location: null`),
 * which the column lookup reads as empty sub-fields.
 */
export function flattenRecord(record: Record<string, unknown>, prefix = '', out: Record<string, CsvValue> = {}): Record<string, CsvValue> {
  for (const [key, value] of Object.entries(record)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value)) {
      out[name] = value.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v))).join(CSV_ARRAY_JOINER);
    } else if (value !== null && typeof value === 'object') {
      flattenRecord(value as Record<string, unknown>, name, out);
    } else {
      out[name] = value as CsvValue;
    }
  }
  return out;
}

const NEEDS_QUOTES = /[;"\r\n]|^\s|\s$/;

/**
 * Where a spreadsheet may start a cell inside one of our fields besides the field's start: after
 * a comma, tab or line break. Excel in a comma locale splits a line on commas whatever our `;`
 * says, and a paste splits on tabs: `x,=1+2` gave a cell `=1+2` there.
 */
const CELL_BREAK = '[,\\t\\r\\n]';
/**
 * What a spreadsheet would take for a formula at a cell start (`=`, `+`, `-`, `@`, tab, carriage
 * return), and the single quote that marks neutralised text (so that taking it off again is
 * exact: `'=x` is written `''=x`).
 */
const FORMULA = "[=+\\-@\\t\\r']";
const FORMULA_START = new RegExp(`^${FORMULA}`);
const FORMULA_AFTER_BREAK = new RegExp(`(${CELL_BREAK})(?=${FORMULA})`, 'g');
const MARK_AFTER_BREAK = new RegExp(`(${CELL_BREAK})'`, 'g');
/** The mark a spreadsheet reads as "this cell is text" and does not display. */
export const CSV_TEXT_MARK = "'";

/**
 * OWASP's defence against CSV injection for one text cell: a single quote in front of every
 * formula a spreadsheet could find in it (at its start and after a CELL_BREAK). Only text is
 * neutralised: numbers and booleans are written as they are, so `-12000` in `revenue` stays a
 * number in a spreadsheet, while a name `-12000` (a string) becomes `'-12000`.
 */
export function neutraliseCell(text: string): string {
  const inside = text.replace(FORMULA_AFTER_BREAK, `$1${CSV_TEXT_MARK}`);
  return FORMULA_START.test(text) ? CSV_TEXT_MARK + inside : inside;
}

/** The inverse of neutraliseCell, for text cells read back from our own CSV (`bolag db import`). */
export function restoreCell(text: string): string {
  const inside = text.startsWith(CSV_TEXT_MARK) ? text.slice(CSV_TEXT_MARK.length) : text;
  return inside.replace(MARK_AFTER_BREAK, '$1');
}

/**
 * One field, quoted per RFC 4180 when it holds the separator, a quote, a line break or edge
 * spaces. Text is neutralised first (neutraliseCell) and then always quoted, as OWASP advises.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = neutraliseCell(value);
  return text !== value || NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header line, with its line end (no BOM: write CSV_BOM once at the start of a file). */
export function csvHeader(columns: readonly string[]): string {
  return columns.map(csvField).join(CSV_SEPARATOR) + CSV_LINE_END;
}

/** One record as a CSV line, with its line end. */
export function csvRow(record: Record<string, unknown>, columns: readonly string[]): string {
  const flat = flattenRecord(record);
  return columns.map((c) => csvField(flat[c])).join(CSV_SEPARATOR) + CSV_LINE_END;
}

/** Splits one CSV text of this dialect back into rows of fields (for imports and tests). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.startsWith(CSV_BOM) ? 1 : 0;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === CSV_SEPARATOR) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
