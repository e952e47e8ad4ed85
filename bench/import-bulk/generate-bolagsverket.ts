// A Bolagsverket-format bulk file of any size, deterministic, with the real file's shares:
// ~60 % deregistered, ~15 % sole traders, proceedings, and the reported dirt (stray quotes, NUL,
// `null`, both address orders, lines cut short). Week 2 renames, moves and deregisters a few %,
// drops 0.3 % and adds 0.5 %.
import { ChunkedWriter } from './chunked-writer.js';
import { ACTIVITIES, AREAS, PLACES, postcode, STREETS, WORDS } from './places.js';
import { hash, orgNrOf, personNrOf, pick } from './random.js';

const HEADER = 'organisationsidentitet;namnskyddslopnummer;registreringsland;organisationsnamn;organisationsform;avregistreringsdatum;avregistreringsorsak;pagandeAvvecklingsEllerOmstruktureringsforfarande;registreringsdatum;verksamhetsbeskrivning;postadress';
const FORMS: readonly [string, string, number][] = [
  ['AB', '5', 0.7], ['HB', '9', 0.08], ['KB', '9', 0.02], ['EK', '7', 0.04], ['BRF', '7', 0.05], ['I', '8', 0.06], ['S', '8', 0.05],
];

/** Is row i a sole trader (in either file)? */
export const isPersonRow = (i: number) => hash(i, 1) < 0.15;
/** Is row i deregistered in week `week`? */
export const isDeregistered = (i: number, week: number) => hash(i, 2) < 0.6 || (week === 2 && hash(i, 10) >= 0.03 && hash(i, 10) < 0.035);
export const isDropped = (i: number, week: number) => week === 2 && hash(i, 11) < 0.003;
export function formOf(i: number): [string, string] {
  let r = hash(i, 4);
  for (const [code, digit, share] of FORMS) {
    if (r < share) return [code, digit];
    r -= share;
  }
  return ['AB', '5'];
}

export function bolagsverketLine(i: number, week: number): string {
  const person = isPersonRow(i);
  const [form, digit] = person ? ['E', ''] : formOf(i);
  const id = person ? `${personNrOf(i)}$PERSON-IDORG` : `${orgNrOf(i, digit)}$ORGNR-IDORG`;
  let name = `${pick(WORDS, hash(i, 5))} ${pick(PLACES, hash(i, 6))} ${form === 'AB' ? 'AB' : form === 'HB' ? 'HB' : ''}`.trim();
  if (week === 2 && hash(i, 10) < 0.02) name += ' Holding';
  if (hash(i, 7) < 0.01) name = `${name.split(' ')[0]} "${pick(PLACES, hash(i, 8))}" AB`; // stray unescaped quotes
  if (hash(i, 7) > 0.9995) name = `${name}\u0000`; // a NUL byte
  const year = 1970 + Math.floor(hash(i, 9) * 55);
  const registered = `${year}-0${1 + Math.floor(hash(i, 12) * 9)}-1${Math.floor(hash(i, 13) * 9)}`;
  const dereg = isDeregistered(i, week) ? `${Math.min(2025, year + 3)}-06-30` : hash(i, 14) < 0.02 ? 'null' : '';
  const pr = hash(i, 3);
  const proceedings = dereg !== '' && dereg !== 'null' ? '' : pr < 0.01 ? `|KK-AVOMFO$2025-0${1 + Math.floor(pr * 900)}-01` : pr < 0.02 ? 'LI-AVOMFO$Likvidation$2024-05-01' : pr < 0.03 ? '|KKAVOV-AVSLAVOMFO$2023-01-01' : '';
  const moved = week === 2 && hash(i, 10) >= 0.02 && hash(i, 10) < 0.03;
  const area = pick(AREAS, hash(i, moved ? 16 : 15));
  const street = `${pick(STREETS, hash(i, 17))} ${1 + Math.floor(hash(i, 18) * 60)}`;
  const pc = postcode(area, hash(i, 19));
  const address = hash(i, 20) < 0.3 ? `${street}$$${pc}$${area.city}$SE-LAND` : `${street}$$${area.city}$${pc}$SE-LAND`;
  const fields = [id, '1', 'SE-LAND', `${name}$FORETAGSNAMN-ORGNAM$${registered}`, `${form}-ORGFO`, dereg, dereg && dereg !== 'null' ? 'AVREG-AVORG' : '', proceedings, registered, pick(ACTIVITIES, hash(i, 21)), address];
  if (hash(i, 22) < 0.001) fields.length = 5; // a line cut short
  return `"${fields.join('";"')}"`;
}

/** Writes `rows` rows (plus week 2's additions); returns the number of lines written. */
export function generateBolagsverket(path: string, rows: number, week: number): number {
  const out = new ChunkedWriter(path, 'utf8');
  out.write(`\uFEFF${HEADER}\n`);
  let lines = 0;
  const total = week === 2 ? Math.round(rows * 1.005) : rows;
  for (let i = 0; i < total; i++) {
    if (isDropped(i, week)) continue;
    out.write(`${bolagsverketLine(i, week)}${i % 7 === 0 ? '\r\n' : '\n'}`);
    lines++;
  }
  out.close();
  return lines;
}
