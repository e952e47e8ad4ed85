// Sole traders' lines are left out by their identity field alone, unparsed (open-data/classify-lines.ts):
// counted as persons left out whatever dirt the rest of the line holds, never reported as
// unreadable (the report would repeat personal data). With --include-persons they are read, and
// a dirty one is reported with its line number like any other.
import { describe, expect, it } from 'vitest';
import { type OpenDataSource, type ReadStats, readSourceRecords } from '../../src/import/open-data/read-source.js';
import { classifyLines } from '../../src/import/open-data/classify-lines.js';
import { type ImportRecord, recordsOf } from '../../src/store/import-types.js';

const bv = (...f: string[]) => `"${f.join('";"')}"`;
const bvHeader = bv('organisationsidentitet', 'namnskyddslopnummer', 'registreringsland', 'organisationsnamn', 'organisationsform', 'avregistreringsdatum', 'avregistreringsorsak', 'pagandeAvvecklingsEllerOmstruktureringsforfarande', 'registreringsdatum', 'verksamhetsbeskrivning', 'postadress');
const bvPerson = bv('196406253432$PERSON-IDORG', '1', 'SE-LAND', 'Anna Andersson$FORETAGSNAMN-ORGNAM$2001-01-01', 'E-ORGFO', '', '', '', '2001-01-01', 'Frisör', 'Gatan 1$$STOCKHOLM$11122$SE-LAND');
const bvCompany = bv('5566778899$ORGNR-IDORG', '1', 'SE-LAND', 'Exempel AB$FORETAGSNAMN-ORGNAM$2020-01-02', 'AB-ORGFO', '', '', '', '2020-01-02', 'IT', 'Box 1$$STOCKHOLM$11122$SE-LAND');

const scbNames = ['ForAndrTyp', 'COAdress', 'Foretagsnamn', 'FtgStat', 'Gatuadress', 'JEStat', 'JurForm', 'Namn', 'Ng1', 'Ng2', 'Ng3', 'Ng4', 'Ng5', 'PeOrgNr', 'PostNr', 'PostOrt', 'RegDatKtid', 'Reklamsparrtyp'];
const scb = (v: Record<string, string>) => `${scbNames.map((h) => v[h] ?? '').join('\t')}\t`;
const scbBase = { Foretagsnamn: 'Exempel AB', FtgStat: '1', JEStat: '1', JurForm: '49', Ng1: '62100', PeOrgNr: '165566778899', PostNr: '111 51', PostOrt: 'Stockholm', Gatuadress: 'Gatan 1', RegDatKtid: '20200102', Reklamsparrtyp: '1' };
const scbPerson = scb({ ...scbBase, PeOrgNr: '196406253432', JurForm: '10', Foretagsnamn: 'Anna Andersson' });

const files: Record<OpenDataSource, string[]> = {
  // A sole trader's clean line, then one cut short (5 fields), then a company.
  bolagsverket: [bvHeader, bvPerson, bvPerson.split('";"').slice(0, 5).join('";"'), bvCompany],
  // A sole trader's clean line, then one with an activity code SCB does not have, then a company.
  scb: [`${scbNames.join('\t')}\t`, scbPerson, scbPerson.replace('\t1\t', '\t7\t'), scb(scbBase)],
};

async function read(source: OpenDataSource, includePersons: boolean) {
  const stats: ReadStats = { lines: 0, records: 0, persons: 0, errors: 0, errorsWithKey: 0 };
  const errors: number[] = [];
  async function* bytes() {
    yield new TextEncoder().encode(files[source].join('\n'));
  }
  const batches = classifyLines(bytes(), { source, includePersons, batchSize: 2000 });
  const records: ImportRecord[] = [];
  for await (const chunk of readSourceRecords(source, batches, stats, { includePersons, strict: false, onError: (line) => errors.push(line) })) records.push(...recordsOf(chunk));
  // Read the lazily parsed ones, as the register does when it plans them.
  const orgNrs = records.map((r) => r.data.org_nr);
  return { stats, errors, orgNrs };
}

describe.each(['bolagsverket', 'scb'] as const)("%s's sole traders", (source) => {
  it('are left out unread, a dirty line too, and not reported', async () => {
    const { stats, errors, orgNrs } = await read(source, false);
    expect(errors).toEqual([]);
    expect(stats).toMatchObject({ lines: 3, records: 1, persons: 2, errors: 0 });
    expect(orgNrs).toEqual(['5566778899']);
  });

  it('are read with --include-persons, and a dirty line is reported with its line number', async () => {
    const { stats, errors, orgNrs } = await read(source, true);
    expect(errors).toEqual([3]);
    expect(stats).toMatchObject({ lines: 3, records: 2, persons: 0, errors: 1, errorsWithKey: 1 });
    // The dirty line's number still passed on (without data), so it is not taken as vanished.
    expect(orgNrs).toEqual(['6406253432', '6406253432', '5566778899']);
  });
});

describe('a personal identity number in any shape is a sole trader left out, not a reported line', () => {
  // Found 2026-11-29: these were reported as unreadable, the report (stderr, --errors) repeating
  // the person's number, name and address.
  const shapes: Record<OpenDataSource, string[]> = {
    bolagsverket: [
      bvPerson.replace('$PERSON-IDORG', '$person-idorg'),
      bvPerson.replace('196406253432$PERSON-IDORG', '196406253432'),
      bvPerson.replace('196406253432$PERSON-IDORG', '6406253432$ORGNR-IDORG'),
      bvPerson.replace('"196406253432$PERSON-IDORG"', '196406253432$PERSON-IDORG'),
    ],
    scb: [scbPerson.replace('196406253432', '6406253432'), scbPerson.replace('196406253432', '166406253432'), scbPerson.replace('196406253432', '"196406253432"')],
  };
  it.each(['bolagsverket', 'scb'] as const)('%s', async (source) => {
    const header = files[source][0];
    const company = files[source][3];
    const stats: ReadStats = { lines: 0, records: 0, persons: 0, errors: 0, errorsWithKey: 0 };
    const errors: number[] = [];
    async function* bytes() {
      yield new TextEncoder().encode([header, ...shapes[source], company].join('\n'));
    }
    const records: ImportRecord[] = [];
    const batches = classifyLines(bytes(), { source, includePersons: false, batchSize: 2000 });
    for await (const chunk of readSourceRecords(source, batches, stats, { includePersons: false, strict: false, onError: (line) => errors.push(line) })) records.push(...recordsOf(chunk));
    expect(errors).toEqual([]);
    expect(stats).toMatchObject({ records: 1, persons: shapes[source].length, errors: 0 });
    expect(records.map((r) => r.data.org_nr)).toEqual(['5566778899']);
  });
});
