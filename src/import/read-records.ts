// Import files in the export's own shapes: JSONL (one company a line) or the CSV dialect
// (`;`, BOM, header, RFC 4180 quoting, nested fields flattened with dots).
import { readLinesSync } from './read-lines.js';
import { ImportError } from './import-error.js';
import { jsonlRecords } from './ours/read-jsonl.js';
import type { ImportRecord } from '../store/import-types.js';
import { CompanySchema } from '../core/company.js';
import { companyCsvColumns, restoreCell } from '../core/csv.js';

export function detectFormat(path: string, firstLine: string): 'jsonl' | 'csv' {
  if (/\.jsonl?$/i.test(path)) return 'jsonl';
  if (/\.csv$/i.test(path)) return 'csv';
  return firstLine.replace(/^\uFEFF/, '').trimStart().startsWith('{') ? 'jsonl' : 'csv';
}

export function* readImportRecords(path: string): Generator<ImportRecord> {
  const lines = readLinesSync(path);
  const first = lines.next();
  if (first.done) return;
  const format = detectFormat(path, first.value.text);
  if (format === 'jsonl') {
    yield* jsonlRecords(first.value, lines);
  } else {
    yield* csvRecords(first.value, lines);
  }
}

/** Every column an export's CSV may have (all fields, with near and expand). */
const EXPORT_COLUMNS = new Set(companyCsvColumns({ distance: true, expand: true }));

/**
 * A header an export could have written. Before, `org_nr,name` (commas) and `foo;bar` failed at
 * line 2 with "org_nr \"\" is not a valid organisation number", and a file whose one line was
 * `hello` imported nothing with exit 0.
 */
function checkHeader(columns: string[], line: number): void {
  if (columns.length === 1 && /[,\t]/.test(columns[0])) {
    throw new ImportError(line, `the header is one column: a CSV import takes an export's columns, separated by ';' (this file's seem separated by '${columns[0].includes(',') ? ',' : 'tabs'}')`);
  }
  const unknown = columns.filter((c) => !EXPORT_COLUMNS.has(c));
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 5).map((c) => JSON.stringify(c)).join(', ') + (unknown.length > 5 ? `, … (${unknown.length} in all)` : '');
    throw new ImportError(line, `the header has column(s) no export has: ${shown}; a CSV import takes an export's columns (id, org_nr, name, address.city, …) or JSONL`);
  }
  if (!columns.includes('org_nr') && !columns.includes('id')) throw new ImportError(line, 'the header has neither org_nr nor id: nothing to find a company by');
}

function* csvRecords(header: { line: number; text: string }, rest: Iterator<{ line: number; text: string }>): Generator<ImportRecord> {
  const columns = parseCsvLine(header.text.replace(/^\uFEFF/, ''), header.line, rest).fields;
  checkHeader(columns, header.line);
  for (let r = rest.next(); !r.done; r = rest.next()) {
    if (r.value.text === '') continue;
    const { fields } = parseCsvLine(r.value.text, r.value.line, rest);
    if (fields.length !== columns.length) {
      throw new ImportError(r.value.line, `has ${fields.length} fields; the header has ${columns.length}`);
    }
    yield { line: r.value.line, data: unflatten(columns, fields, r.value.line) };
  }
}

/** RFC 4180 with `;`: a quoted field may span lines, so more lines are pulled as needed. */
export function parseCsvLine(
  text: string,
  line: number,
  more: Iterator<{ line: number; text: string }>,
): { fields: string[] } {
  const fields: string[] = [];
  let field = '';
  let i = 0;
  let s = text;
  let quoted = false;
  let wasQuoted = false;
  for (;;) {
    if (i >= s.length) {
      if (quoted) {
        const next = more.next();
        if (next.done) throw new ImportError(line, 'a quoted field is not closed');
        s += `\n${next.value.text}`;
        continue;
      }
      fields.push(field);
      return { fields };
    }
    const ch = s[i];
    if (quoted) {
      if (ch === '"') {
        if (s[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '' && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
      i++;
    } else if (ch === ';') {
      fields.push(field);
      field = '';
      wasQuoted = false;
      i++;
    } else {
      field += ch;
      i++;
    }
  }
}

const SHAPE = CompanySchema.shape;
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const NUMBER_FIELDS = new Set(['revenue', 'profit', 'equity_ratio', 'revenue_growth', 'distance_km']);
const BOOLEAN_FIELDS = new Set(Object.keys(SHAPE).filter((k) => ['has_financials', 'f_skatt', 'vat_registered', 'employer_registered', 'verified', 'advertising_blocked'].includes(k)));

/** Dotted CSV columns back into the record's shape, with the types the schema expects. */
function unflatten(columns: string[], values: string[], line: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const raw = values[i];
    const path = column.split('.');
    // Object.prototype's own names would reach it through `target[key]`, not a field.
    if (path.some((key) => PROTOTYPE_KEYS.has(key))) throw new ImportError(line, `column "${column}" names no field`);
    const value = csvValue(path, raw, line);
    let target = out;
    for (const key of path.slice(0, -1)) {
      target[key] ??= {};
      target = target[key] as Record<string, unknown>;
    }
    target[path[path.length - 1]] = value;
  });
  for (const key of ['location', 'latest_financials']) {
    const v = out[key] as Record<string, unknown> | undefined;
    if (v && Object.values(v).every((x) => x === null)) out[key] = null;
  }
  return out;
}

function csvValue(path: string[], raw: string, line: number): unknown {
  const key = path.join('.');
  // Text cells were neutralised against formulas when written (src/core/csv.ts); numbers and
  // booleans never are, so `-12000` in revenue is read as it stands.
  if (key === 'sni_codes') return raw === '' ? [] : restoreCell(raw).split(/[,|]/).map((s) => s.trim());
  if (raw === '') return key === 'website' || NUMBER_FIELDS.has(key) || path.length > 1 && ['location', 'latest_financials'].includes(path[0]) ? null : '';
  if (BOOLEAN_FIELDS.has(key)) {
    if (raw !== 'true' && raw !== 'false') throw new ImportError(line, `${key} must be true or false`);
    return raw === 'true';
  }
  if (NUMBER_FIELDS.has(key) || path[0] === 'location' || (path[0] === 'latest_financials' && !['period_start', 'period_end', 'currency'].includes(path[1]))) {
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new ImportError(line, `${key} must be a number`);
    return n;
  }
  return restoreCell(raw);
}
