// One line of `bolagsverket_bulkfil.txt`: `;`-separated, every field in `"`. Free text holds
// stray unescaped quotes, so a line is split on `";"` rather than by a CSV parser.
import { isPersonalNumber, isValidOrgNr } from '../../core/orgnr.js';
import { isCalendarDate } from '../../core/param-types.js';
import { textCleanerFor } from '../open-data/clean-text.js';
import { parseDollarAddress } from '../open-data/parse-address.js';
import { type BolagsverketRow, RowError } from '../open-data/source-row.js';
import { mapBolagsverketLegalForm } from './map-legal-form.js';
import { parseName } from './parse-name.js';
import { ongoingProceeding } from './parse-proceedings.js';

export const BOLAGSVERKET_COLUMNS = 11;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isBolagsverketHeader(text: string): boolean {
  return /^\uFEFF?"?organisationsidentitet/i.test(text);
}

/** The header's columns, in the order the lines are read in (by position, for speed). */
const HEADER = [
  'organisationsidentitet',
  'namnskyddslopnummer',
  'registreringsland',
  'organisationsnamn',
  'organisationsform',
  'avregistreringsdatum',
  'avregistreringsorsak',
  'pagandeavvecklingselleromstruktureringsforfarande',
  'registreringsdatum',
  'verksamhetsbeskrivning',
  'postadress',
];

/**
 * What differs between a header and the one the lines are read by, or null: a header with its
 * columns reordered, renamed or added read each line's fields into the wrong ones, silently
 * (every company deregistered where the dates had swapped places).
 */
export function bolagsverketHeaderMismatch(text: string): string | null {
  // Unquoted in the files seen, quoted perhaps: no name holds a quote or a `;`.
  const names = text.replace(/^\uFEFF/, '').split(';').map((n) => n.replaceAll('"', '').trim().toLowerCase());
  while (names.length > HEADER.length && names[names.length - 1] === '') names.pop();
  const at = HEADER.findIndex((name, i) => names[i] !== name);
  if (at !== -1) return `its column ${at + 1} is ${names[at] === undefined ? 'missing' : `"${names[at]}"`} where "${HEADER[at]}" was expected`;
  if (names.length > HEADER.length) return `it has ${names.length} columns where ${HEADER.length} were expected ("${names[HEADER.length]}" is new)`;
  return null;
}

/** The fields of a line, quotes stripped and `""` unescaped. */
export function splitBolagsverketLine(text: string): string[] {
  // By index rather than by regular expression and copies: three million lines a week.
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let end = text.length;
  for (let c = text.charCodeAt(end - 1); end > start && (c === 0x20 || c === 0x09); c = text.charCodeAt(--end - 1));
  if (text.charCodeAt(start) === 0x22 && end > start) start++;
  if (end > start && text.charCodeAt(end - 1) === 0x22) end--;
  const s = start === 0 && end === text.length ? text : text.slice(start, end);
  const fields = s.split('";"');
  // No field holds `""` when the line does not.
  return s.includes('""') ? fields.map((f) => (f.includes('""') ? f.replaceAll('""', '"') : f)) : fields;
}

export function parseBolagsverketRow(line: number, text: string): BolagsverketRow {
  const f = splitBolagsverketLine(text);
  if (f.length !== BOLAGSVERKET_COLUMNS) throw new RowError(line, `has ${f.length} fields, expected ${BOLAGSVERKET_COLUMNS}`);
  // Every field is quoted: a line that does not end with a quote was cut inside its last field (a
  // file cut short), and its address would be read as empty, blanking the stored one.
  if (!endsWithQuote(text)) throw new RowError(line, 'ends inside its last field (no closing quote): the line is cut short');
  const cleanText = textCleanerFor(text);
  const identity = cleanText(f[0]);
  const [number = '', type = ''] = identity.split('$');
  const labelledPerson = type === 'PERSON-IDORG';
  const orgNr = toTenDigits(number.replace(/\D/g, ''), labelledPerson);
  if (orgNr === null) throw new RowError(line, `organisationsidentitet "${identity}" is not a valid number`);
  // A personal identity number labelled ORGNR is a person's all the same (an organisation's third
  // digit is 2 or more): left out with the others, as personal data.
  const isPerson = labelledPerson || isPersonalNumber(orgNr);
  const name = parseName(cleanText(f[3]));
  if (name === '') throw new RowError(line, 'organisationsnamn holds no name');
  const deregistered = cleanText(f[5]);
  const registered = cleanText(f[8]);
  // A deregistration date that is no date is not guessed at (2021-02-30 made a company
  // deregistered, 2021/06/30 left it registered): the line is reported. All zeros is a blank.
  const isDeregistered = deregistered !== '' && !/^0{4}-0{2}-0{2}$/.test(deregistered);
  if (isDeregistered && !(DATE.test(deregistered) && isCalendarDate(deregistered))) throw new RowError(line, `avregistreringsdatum "${deregistered}" is not a date`);
  const standing = isDeregistered ? 'avregistrerad' : (ongoingProceeding(cleanText(f[7])) ?? 'registrerad');
  return {
    source: 'bolagsverket',
    line,
    orgNr,
    isPerson,
    name,
    legalForm: mapBolagsverketLegalForm(cleanText(f[4]), orgNr, isPerson),
    registrationDate: DATE.test(registered) && isCalendarDate(registered) ? registered : null,
    standing,
    description: cleanText(f[9]),
    address: parseDollarAddress(cleanText(f[10])),
  };
}

function endsWithQuote(text: string): boolean {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end--;
  return text.charCodeAt(end - 1) === 0x22;
}

/** Org nrs have 10 digits; personal identity numbers 12 (century first), of which we keep 10. */
function toTenDigits(digits: string, isPerson: boolean): string | null {
  let ten: string;
  if (digits.length === 10) ten = digits;
  else if (digits.length === 12 && (isPerson || digits.startsWith('16'))) ten = digits.slice(2);
  else return null;
  return isValidOrgNr(ten) ? ten : null;
}
