// An SCB-format bulk file (windows-1252, tab-separated, trailing tab, CRLF): the active legal
// persons of the generated Bolagsverket file, most of its sole traders, and associations only
// SCB lists, until `rows`. Week 2 moves 2 %, changes 1 % of activity codes, drops 0.3 %.
import { ChunkedWriter } from './chunked-writer.js';
import { isDeregistered, isDropped, isPersonRow } from './generate-bolagsverket.js';
import { AREAS, PLACES, postcode, SNI2025, STREETS, WORDS } from './places.js';
import { hash, orgNrOf, personNrOf, pick } from './random.js';

const COLS = ['ForAndrTyp', 'COAdress', 'Foretagsnamn', 'FtgStat', 'Gatuadress', 'JEStat', 'JurForm', 'Namn', 'Ng1', 'Ng2', 'Ng3', 'Ng4', 'Ng5', 'PeOrgNr', 'PostNr', 'PostOrt', 'RegDatKtid', 'Reklamsparrtyp'];
const TWINS = COLS.filter((c) => c !== 'ForAndrTyp' && c !== 'PeOrgNr').map((c) => `m${c}`);
const EMPTY_TWINS = '\t'.repeat(TWINS.length);

function scbLine(i: number, week: number, kind: 'bolagsverket' | 'only-scb'): string {
  const person = kind === 'bolagsverket' && isPersonRow(i);
  const id = person ? personNrOf(i) : `16${orgNrOf(i, kind === 'only-scb' ? '8' : '5')}`;
  const r = hash(i, 30) + (week === 2 && hash(i, 31) < 0.01 ? 0.5 : 0);
  const ftgStat = r % 1 < 0.75 ? '1' : r % 1 < 0.93 ? '0' : '9';
  const moved = week === 2 && hash(i, 32) < 0.02;
  const area = pick(AREAS, hash(i, moved ? 33 : 15));
  const name = `${pick(WORDS, hash(i, 5))} ${pick(PLACES, hash(i, 6))} ${kind === 'only-scb' ? 'förening' : 'AB'}`;
  const v: Record<string, string> = {
    ForAndrTyp: '0',
    Foretagsnamn: person ? '' : name,
    Namn: person ? `Person ${i}` : '',
    FtgStat: ftgStat,
    Gatuadress: `${pick(STREETS, hash(i, 17))} ${1 + Math.floor(hash(i, 18) * 60)}`,
    JEStat: '1',
    JurForm: person ? '10' : kind === 'only-scb' ? '61' : '49',
    Ng1: pick(SNI2025, hash(i, 34)),
    Ng2: hash(i, 35) < 0.3 ? pick(SNI2025, hash(i, 36)) : '00000',
    Ng3: '00000',
    Ng4: '00000',
    Ng5: '00000',
    PeOrgNr: id,
    PostNr: postcode(area, hash(i, 19)),
    PostOrt: area.city,
    RegDatKtid: `${1970 + Math.floor(hash(i, 9) * 55)}0101`,
    Reklamsparrtyp: hash(i, 37) < 0.003 ? '2' : '1',
  };
  const line = `${COLS.map((c) => v[c] ?? '').join('\t')}\t${EMPTY_TWINS}`;
  return hash(i, 38) < 0.001 ? line.slice(0, 20) : line; // a line cut short
}

export function generateScb(path: string, rows: number, bolagsverketRows: number, week: number): number {
  const out = new ChunkedWriter(path, 'latin1');
  out.write(`${[...COLS, ...TWINS].join('\t')}\t\r\n`);
  let lines = 0;
  for (let i = 0; i < bolagsverketRows && lines < rows; i++) {
    if (isDropped(i, week) || hash(i, 39) < 0.003 * (week === 2 ? 1 : 0)) continue;
    if (isPersonRow(i) ? hash(i, 40) < 0.1 : isDeregistered(i, 1)) continue;
    out.write(`${scbLine(i, week, 'bolagsverket')}\r\n`);
    lines++;
  }
  for (let k = 0; lines < rows; k++) {
    out.write(`${scbLine(bolagsverketRows * 2 + k, week, 'only-scb')}\r\n`);
    lines++;
  }
  out.close();
  return lines;
}
