// A company as a row of the PostgreSQL `companies` table. Reading goes through the SQLite
// store's mapper (rowToCompany), since the columns and their values are the same (flags as
// 0/1, codes and dates as text); writing adds what only PostgreSQL keeps: the word vector of
// the full-text index and the SNI codes' index keys (sni-keys.ts).
import type { Company } from '../../core/company.js';
import { MAX_WORD_LENGTH } from '../../core/stored-text.js';
import { fold } from '../../core/text.js';
import { COMPANY_COLUMNS, type CompanyRow, companyToRow } from '../sqlite/company-row.js';
import { sniKeys } from './sni-keys.js';

export { type CompanyRow, distanceKmFrom, rowToCompany } from '../sqlite/company-row.js';

const WORD = /[\p{L}\p{N}]+/gu;

/** Columns written, in COPY and INSERT order. */
export const PG_COLUMNS = [...COMPANY_COLUMNS, 'words', 'sni'] as const;

/** The columns read for a record (the search-only ones left out; latest_financials only when expanded). */
export function readColumns(expand: boolean, alias = 'c'): string {
  return COMPANY_COLUMNS.filter((c) => c !== 'name_sort' && c !== 'city_folded' && (expand || c !== 'latest_financials'))
    .map((c) => `${alias}.${c}`)
    .join(', ');
}

/**
 * The words a company's name is found by (search/text-sql.ts): its folded name's words, as
 * src/store/sqlite/search/text-query.ts reads them. Lexemes go in as they are (no stemming, no
 * stop words). The org nr's words are matched on the org_nr column itself: three unique words
 * a company would make the full-text index ten times dearer to build.
 */
export function wordLexemes(nameSort: string): string[] {
  return [...new Set(nameSort.match(WORD) ?? [])];
}

/** tsvector input: each lexeme quoted (words are letters and digits only: nothing to escape). */
export function tsvectorText(lexemes: readonly string[]): string {
  return lexemes.map((w) => `'${w}'`).join(' ');
}

/**
 * Marks a word of the business description (open-data imports) in `words`: `~bygg` is
 * "bygg" in the description, found by q through the industry's tier (search/text-sql.ts) and
 * never taken for a word of the name.
 */
export const DESCRIPTION_MARK = '~';

/**
 * The marked words of a business description (its folded words, as tierOf reads them). The
 * description is the file's, unchecked: a word past MAX_WORD_LENGTH is cut there (PostgreSQL
 * refuses a lexeme of 2 kB; a query word that long matches nothing, a shorter one still finds the
 * company by prefix), and words past DESCRIPTION_LETTERS are left out (a tsvector holds 1 MB).
 */
export function descriptionLexemes(description: string): string[] {
  if (!description) return [];
  const out: string[] = [];
  let letters = 0;
  for (const word of wordLexemes(fold(description))) {
    const w = word.length > MAX_WORD_LENGTH ? [...word].slice(0, MAX_WORD_LENGTH).join('') : word;
    letters += w.length;
    if (letters > DESCRIPTION_LETTERS) break;
    out.push(DESCRIPTION_MARK + w);
  }
  return out;
}

const DESCRIPTION_LETTERS = 100_000;

export interface PgCompanyRow extends CompanyRow {
  words: string;
  sni: string;
}

export function companyToPgRow(c: Company, rowid: number, description = ''): PgCompanyRow {
  const row = companyToRow(c, rowid) as PgCompanyRow;
  row.words = tsvectorText([...wordLexemes(row.name_sort), ...descriptionLexemes(description)]);
  row.sni = `{${sniKeys(c.sni_codes).join(',')}}`;
  return row;
}

/** The row's values in PG_COLUMNS order, for a parameterised INSERT or UPDATE. */
export function rowValues(row: PgCompanyRow): unknown[] {
  return PG_COLUMNS.map((c) => row[c]);
}

/**
 * One line of COPY's text format (tab-separated, \N for null, backslash escapes) over `columns`
 * of a row and `extra` columns of a second object (an import's internals, not merged into the row),
 * compiled once: a property read by name per column, where a loop over the names read each
 * through a generic lookup. Joined, not concatenated: one flat string, where `+=` left a tree of
 * ninety pieces that an import keeps until its batch is sent.
 */
export function copyLineWriter(columns: readonly string[], extra: readonly string[] = []): (row: object, more?: object) => string {
  const fields = [...columns.map((c) => `f(r.${c})`), ...extra.map((c) => `f(m.${c})`)];
  return new Function('f', `return (r, m) => [${fields.join(', ')}].join('\\t') + '\\n';`)(copyField);
}

function copyField(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return String(v);
  const t = String(v);
  return ESCAPABLE.test(t) ? t.replace(ESCAPES, (ch) => ESCAPED[ch]) : t;
}

const ESCAPABLE = /[\\\t\n\r]/;
const ESCAPES = /[\\\t\n\r]/g;
const ESCAPED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
