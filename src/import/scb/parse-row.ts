// One line of SCB's `scb_bulkfil_JE_*.txt`: tab-separated, no quoting at all (a `"` is just a
// character), a trailing tab after the last column. Columns are found by the header's names.
import { isCalendarDate } from '../../core/param-types.js';
import { isPersonalNumber, isValidOrgNr } from '../../core/orgnr.js';
import { textCleanerFor } from '../open-data/clean-text.js';
import { careOf, postalAddress } from '../open-data/parse-address.js';
import { RowError, type ScbRow } from '../open-data/source-row.js';
import { mapScbActivity } from './map-activity.js';
import { mapScbLegalForm } from './map-legal-form.js';

const NEEDED = ['COAdress', 'Foretagsnamn', 'FtgStat', 'Gatuadress', 'JEStat', 'JurForm', 'Namn', 'Ng1', 'Ng2', 'Ng3', 'Ng4', 'Ng5',
  'PeOrgNr', 'PostNr', 'PostOrt', 'RegDatKtid', 'Reklamsparrtyp'] as const;
type Column = (typeof NEEDED)[number];
export type ScbColumns = Record<Column, number> & { count: number };

export function isScbHeader(text: string): boolean {
  return /(^|\t)PeOrgNr(\t|$)/.test(text);
}

export function scbColumns(header: string): ScbColumns {
  const names = header.replace(/^\uFEFF/, '').replace(/\t+$/, '').split('\t').map((s) => s.trim());
  const out = { count: names.length } as ScbColumns;
  for (const c of NEEDED) {
    const i = names.indexOf(c);
    if (i === -1) throw new RowError(1, `the header has no column ${c}`);
    out[c] = i;
  }
  return out;
}

export function parseScbRow(line: number, text: string, cols: ScbColumns): ScbRow {
  const f = text.split('\t');
  // The trailing tab makes one empty field more; a row with fewer fields than the header is cut.
  while (f.length > cols.count && f[f.length - 1].trim() === '') f.pop();
  if (f.length !== cols.count) throw new RowError(line, `has ${f.length} fields, expected ${cols.count}`);
  const cleanText = textCleanerFor(text, true);
  const get = (c: Column) => cleanText(f[cols[c]]);
  const id = get('PeOrgNr').replace(/\D/g, '');
  if (id.length !== 12) throw new RowError(line, `PeOrgNr "${get('PeOrgNr')}" is not 12 digits`);
  const orgNr = id.slice(2);
  // 16 first is an organisation, unless its third digit says a person (as in Bolagsverket's file).
  const isPerson = !id.startsWith('16') || isPersonalNumber(orgNr);
  if (!isValidOrgNr(orgNr)) throw new RowError(line, `PeOrgNr "${id}" has a wrong check digit`);
  const activity = mapScbActivity(get('FtgStat'), get('JEStat'));
  if (activity === null) throw new RowError(line, `FtgStat "${get('FtgStat')}" / JEStat "${get('JEStat')}" are not known codes`);
  const co = get('COAdress');
  const street = get('Gatuadress');
  const reg = get('RegDatKtid');
  return {
    source: 'scb',
    line,
    orgNr,
    isPerson,
    name: get('Foretagsnamn') || get('Namn'),
    legalForm: mapScbLegalForm(get('JurForm'), orgNr, isPerson),
    registrationDate: scbDate(reg),
    activity,
    sniCodes: [...new Set((['Ng1', 'Ng2', 'Ng3', 'Ng4', 'Ng5'] as const).map(get).filter((c) => /^\d{5}$/.test(c) && c !== '00000'))],
    advertisingBlocked: get('Reklamsparrtyp') === '2',
    address: postalAddress(co ? `${careOf(co)}, ${street}` : street, get('PostNr'), get('PostOrt')),
  };
}

/** `RegDatKtid` (YYYYMMDD) as an ISO date; null when it is not a day of the calendar (20201345). */
function scbDate(value: string): string | null {
  if (!/^\d{8}$/.test(value)) return null;
  const date = `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}`;
  return isCalendarDate(date) ? date : null;
}
