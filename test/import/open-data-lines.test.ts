// The line parsers of both bulk files, case by case, on the dirt the sources report.
import { describe, expect, it } from 'vitest';
import { parseBolagsverketRow, splitBolagsverketLine } from '../../src/import/bolagsverket/parse-row.js';
import { ongoingProceeding } from '../../src/import/bolagsverket/parse-proceedings.js';
import { parseName } from '../../src/import/bolagsverket/parse-name.js';
import { parseDollarAddress } from '../../src/import/open-data/parse-address.js';
import { cleanText, textCleanerFor } from '../../src/import/open-data/clean-text.js';
import { deriveStatus } from '../../src/import/open-data/derive-status.js';
import { RowError } from '../../src/import/open-data/source-row.js';
import { parseScbRow, scbColumns } from '../../src/import/scb/parse-row.js';
import { parserFor } from '../../src/import/open-data/source-parser.js';

const bv = (...f: string[]) => `"${f.join('";"')}"`;
const row = (overrides: Partial<Record<number, string>> = {}) => {
  const f = ['5566778899$ORGNR-IDORG', '1', 'SE-LAND', 'Exempel AB$FORETAGSNAMN-ORGNAM$2020-01-02', 'AB-ORGFO', '', '', '', '2020-01-02', 'IT', 'Box 1$$STOCKHOLM$11122$SE-LAND'];
  for (const [i, v] of Object.entries(overrides)) f[Number(i)] = v as string;
  return bv(...f);
};

describe('Bolagsverket lines', () => {
  it('splits on ";" so that stray quotes in free text survive', () => {
    expect(splitBolagsverketLine('"a";"Bageriet "Solen" AB";"c"')).toEqual(['a', 'Bageriet "Solen" AB', 'c']);
    expect(splitBolagsverketLine('"a";"x ""y"" z";"c"\t')).toEqual(['a', 'x "y" z', 'c']);
  });

  it('strips a BOM, trailing tabs and spaces, and the outer quotes, as far as they go', () => {
    expect(splitBolagsverketLine('\uFEFF"a";"b" \t ')).toEqual(['a', 'b']);
    expect(splitBolagsverketLine('a";"b')).toEqual(['a', 'b']);
    expect(splitBolagsverketLine('"a";"b')).toEqual(['a', 'b']);
    expect(splitBolagsverketLine('"')).toEqual(['']);
    expect(splitBolagsverketLine('""')).toEqual(['']);
    expect(splitBolagsverketLine('\uFEFF \t')).toEqual(['']);
    expect(splitBolagsverketLine('')).toEqual(['']);
    expect(splitBolagsverketLine('"a"";"b"')).toEqual(['a"', 'b']);
  });

  it('reads the example row of the documentation', () => {
    expect(parseBolagsverketRow(2, row())).toEqual({
      source: 'bolagsverket', line: 2, orgNr: '5566778899', isPerson: false, name: 'Exempel AB', legalForm: 'aktiebolag',
      registrationDate: '2020-01-02', standing: 'registrerad', description: 'IT',
      address: { street: 'Box 1', postalCode: '11122', city: 'STOCKHOLM' },
    });
  });

  it('takes deregistration before proceedings, and `null` as no value', () => {
    expect(parseBolagsverketRow(2, row({ 5: '2021-06-30', 7: '|KK-AVOMFO$2020-01-01' })).standing).toBe('avregistrerad');
    expect(parseBolagsverketRow(2, row({ 5: 'null', 9: 'null' }))).toMatchObject({ standing: 'registrerad', description: '' });
  });

  it('reports a deregistration date that is no date instead of guessing; all zeros is none (found 2026-11-29)', () => {
    expect(parseBolagsverketRow(2, row({ 5: '0000-00-00' })).standing).toBe('registrerad');
    for (const bad of ['2021-02-30', '2021/06/30', 'igår']) {
      expect(() => parseBolagsverketRow(4, row({ 5: bad })), bad).toThrow(`avregistreringsdatum "${bad}" is not a date`);
    }
  });

  it("takes a personal identity number labelled ORGNR for a person's (found 2026-11-29: imported as an aktiebolag)", () => {
    expect(parseBolagsverketRow(2, row({ 0: '6406253432$ORGNR-IDORG' }))).toMatchObject({ orgNr: '6406253432', isPerson: true });
    const parser = parserFor('bolagsverket', 1, 'organisationsidentitet;namnskyddslopnummer;registreringsland;organisationsnamn;organisationsform;avregistreringsdatum;avregistreringsorsak;pagandeAvvecklingsEllerOmstruktureringsforfarande;registreringsdatum;verksamhetsbeskrivning;postadress');
    expect(parser.cheapKey(row({ 0: '6406253432$ORGNR-IDORG' }))).toBeNull();
    expect(parser.cheapPerson(row({ 0: '6406253432$ORGNR-IDORG' }))).toBe(true);
    expect(parser.cheapKey(row())).toBe('5566778899');
    expect(parser.cheapPerson(row())).toBe(false);
  });

  it('marks sole traders and keeps ten digits of their number', () => {
    expect(parseBolagsverketRow(2, row({ 0: '196406253432$PERSON-IDORG', 4: 'E-ORGFO' }))).toMatchObject({ orgNr: '6406253432', isPerson: true, legalForm: 'enskild_näringsidkare' });
  });

  it('refuses a line with a wrong field count or check digit, with its line number', () => {
    expect(() => parseBolagsverketRow(7, bv('5566778899$ORGNR-IDORG', '1'))).toThrow(RowError);
    try {
      parseBolagsverketRow(9, row({ 0: '5566778898$ORGNR-IDORG' }));
      expect.unreachable();
    } catch (e) {
      expect((e as RowError).line).toBe(9);
    }
  });

  // Found by an exploratory run (2026-11-28): a file cut inside its last line's address gave a
  // company with no address, and on a weekly import blanked the stored one.
  it('refuses a line cut inside its last field (no closing quote)', () => {
    const whole = row();
    expect(parseBolagsverketRow(3, `${whole}\t `).address).toMatchObject({ city: 'STOCKHOLM' });
    for (const cut of [whole.slice(0, -1), whole.slice(0, -8), whole.slice(0, whole.lastIndexOf('$SE-LAND') + 4)]) {
      expect(() => parseBolagsverketRow(3, cut), cut).toThrow(/cut short/);
    }
  });

  it('leaves a registration date that is no day of the calendar empty', () => {
    expect(parseBolagsverketRow(2, row({ 8: '2020-13-45' })).registrationDate).toBeNull();
    expect(parseBolagsverketRow(2, row({ 8: '2023-02-29' })).registrationDate).toBeNull();
    expect(parseBolagsverketRow(2, row({ 8: '2024-02-29' })).registrationDate).toBe('2024-02-29');
  });

  it('reads both shapes of the proceedings field and skips concluded ones', () => {
    expect(ongoingProceeding('|LI-AVOMFO$2019-08-27|KKAVOV-AVSLAVOMFO$2025-03-11')).toBe('likvidation');
    expect(ongoingProceeding('LI-AVOMFO$Likvidation$2019-08-27|KK-AVOMFO$Konkurs$2020-01-01')).toBe('konkurs');
    expect(ongoingProceeding('|RES-AVOMFO$2024-01-01')).toBe('rekonstruktion');
    expect(ongoingProceeding('|FUOL-AVOMFO$2024-01-01|LI-AVSLAVOMFO$2020-01-01')).toBeNull();
    expect(ongoingProceeding('')).toBeNull();
  });

  it('picks the current company name among several', () => {
    expect(parseName('Gammalt$NAMN-ORGNAM$2010-01-01|Först AB$FORETAGSNAMN-ORGNAM$2012-01-01|Sist AB$FORETAGSNAMN-ORGNAM$2020-01-01')).toBe('Sist AB');
    expect(parseName('Bara Namn$NAMN-ORGNAM$2010-01-01|Foreign Ltd$FORNAMN_FRSPRAK-ORGNAM$2011-01-01')).toBe('Bara Namn');
    // A name holding a "$" is whole, not cut at it (found 2026-11-29: "A").
    expect(parseName('A$B Konsult AB$FORETAGSNAMN-ORGNAM$2020-01-01')).toBe('A$B Konsult AB');
    expect(parseName('X$Y$FORETAGSNAMN-ORGNAM$2020-01-01|Ä$Ö Ltd$FORNAMN_FRSPRAK-ORGNAM$2021-01-01')).toBe('X$Y');
  });

  it('finds the postcode in either order, with a c/o part', () => {
    expect(parseDollarAddress('Box 5305$$STOCKHOLM$10247$SE-LAND')).toEqual({ street: 'Box 5305', postalCode: '10247', city: 'STOCKHOLM' });
    expect(parseDollarAddress('Storgatan 1$Anna$211 20$Malmö$SE-LAND')).toEqual({ street: 'c/o Anna, Storgatan 1', postalCode: '21120', city: 'MALMÖ' });
    expect(parseDollarAddress('Main St 1$$LONDON$$GB-LAND')).toBeNull();
    // A c/o part the source wrote with its c/o is not given a second one (found 2026-11-29).
    expect(parseDollarAddress('Box 1$c/o Kalle$STOCKHOLM$11122$SE-LAND')).toEqual({ street: 'c/o Kalle, Box 1', postalCode: '11122', city: 'STOCKHOLM' });
    expect(parseDollarAddress('Box 1$C/O Kalle$STOCKHOLM$11122$SE-LAND')?.street).toBe('C/O Kalle, Box 1');
  });

  it('drops NUL and control characters and spaces out tabs', () => {
    expect(cleanText('Kon\u0000troll\u0007 AB')).toBe('Kontroll AB');
    expect(cleanText(' a\tb\r\nc ')).toBe('a b c');
    expect(cleanText('null')).toBe('');
  });

  it('drops marks that reorder or hide text, and keeps the joiners that shape letters', () => {
    expect(cleanText('Omvänd \u202egnp.exe\u202c AB')).toBe('Omvänd gnp.exe AB');
    expect(cleanText('Noll\u200bbredd\u2060 \u2066Isolat\u2069 AB\ufeff')).toBe('Nollbredd Isolat AB');
    expect(cleanText('Familj \u{1F468}\u200d\u{1F469} AB')).toBe('Familj \u{1F468}\u200d\u{1F469} AB');
    // A line holding one takes the cleaning path for its fields.
    expect(textCleanerFor('"Omvänd \u202egnp.exe"')).toBe(cleanText);
    expect(textCleanerFor('a\t\u202eb', true)).toBe(cleanText);
  });

  it('cleans the fields of a line without control characters as cleanText does, testing the line once', () => {
    const fields = [' Exempel AB ', 'null', 'NULL', '', undefined, ' \u00A0a\u2003', 'Kon\u0000troll'];
    for (const [line, tabs] of [['plain line', false], ['a\tb', true], ['a\u0000b', false], ['a\u0000b', true], ['a\rb', true]] as const) {
      const clean = textCleanerFor(line, tabs);
      // Fields of that line, when it has no control character, hold none either.
      for (const f of fields) if (f === undefined || !/[\u0000-\u001F\u007F]/.test(f) || clean === cleanText) expect(clean(f)).toBe(cleanText(f));
    }
    expect(textCleanerFor('a\u0007b')).toBe(cleanText);
    expect(textCleanerFor('a\tb', true)).not.toBe(cleanText);
    expect(textCleanerFor('a\tb')).toBe(cleanText);
  });
});

describe('SCB lines', () => {
  const header = ['ForAndrTyp', 'COAdress', 'Foretagsnamn', 'FtgStat', 'Gatuadress', 'JEStat', 'JurForm', 'Namn', 'Ng1', 'Ng2', 'Ng3', 'Ng4', 'Ng5', 'PeOrgNr', 'PostNr', 'PostOrt', 'RegDatKtid', 'Reklamsparrtyp'];
  const cols = scbColumns(`${header.join('\t')}\t`);
  const line = (v: Record<string, string>) => `${header.map((h) => v[h] ?? '').join('\t')}\t`;
  const base = { Foretagsnamn: 'Exempel AB', FtgStat: '1', JEStat: '1', JurForm: '49', Ng1: '62100', Ng2: '62100', Ng3: '00000', PeOrgNr: '165566778899', PostNr: '111 51', PostOrt: 'Stockholm', Gatuadress: 'Gatan 1', RegDatKtid: '20200102', Reklamsparrtyp: '1' };

  it('reads a row by the header names, with its trailing tab', () => {
    expect(parseScbRow(2, line(base), cols)).toEqual({
      source: 'scb', line: 2, orgNr: '5566778899', isPerson: false, name: 'Exempel AB', legalForm: 'aktiebolag', registrationDate: '2020-01-02',
      activity: 'aktiv', sniCodes: ['62100'], advertisingBlocked: false, address: { street: 'Gatan 1', postalCode: '11151', city: 'STOCKHOLM' },
    });
  });

  it('maps FtgStat and JEStat, the advertising block and personal numbers', () => {
    expect(parseScbRow(2, line({ ...base, FtgStat: '0' }), cols).activity).toBe('vilande');
    expect(parseScbRow(2, line({ ...base, FtgStat: '9' }), cols).activity).toBe('vilande');
    expect(parseScbRow(2, line({ ...base, JEStat: '9' }), cols).activity).toBe('avregistrerad');
    expect(parseScbRow(2, line({ ...base, Reklamsparrtyp: '2' }), cols).advertisingBlocked).toBe(true);
    expect(parseScbRow(2, line({ ...base, PeOrgNr: '196406253432', JurForm: '10' }), cols)).toMatchObject({ isPerson: true, legalForm: 'enskild_näringsidkare' });
    expect(() => parseScbRow(2, line({ ...base, FtgStat: '7' }), cols)).toThrow(RowError);
  });

  it('puts c/o before COAdress once, also when SCB wrote it', () => {
    expect(parseScbRow(2, line({ ...base, COAdress: 'Kalle' }), cols).address?.street).toMatch(/^c\/o Kalle, /);
    expect(parseScbRow(2, line({ ...base, COAdress: 'c/o Kalle' }), cols).address?.street).toMatch(/^c\/o Kalle, /);
  });

  it('leaves a RegDatKtid that is no day of the calendar empty', () => {
    expect(parseScbRow(2, line({ ...base, RegDatKtid: '20201345' }), cols).registrationDate).toBeNull();
    expect(parseScbRow(2, line({ ...base, RegDatKtid: '20240229' }), cols).registrationDate).toBe('2024-02-29');
  });
});

describe('names and towns the indexes cannot hold', () => {
  const long = 'a'.repeat(201);
  const wide = '\u3347'.repeat(60); // ㍇ folds to マンション: 300 letters, 900 bytes, one word
  const many = 'Bygg '.repeat(201); // 1,005 bytes
  const refused = (parse: (line: number, text: string) => unknown, text: string, what: RegExp) => {
    try {
      parse(12, text);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RowError);
      expect((e as RowError).line).toBe(12);
      expect((e as RowError).message).toMatch(what);
    }
  };

  it("refuses a Bolagsverket line whose name or town folds too long, or has a word of over 200 letters", () => {
    const { parse } = parserFor('bolagsverket', 1, row());
    refused(parse, row({ 3: `${long} AB$FORETAGSNAMN-ORGNAM$2020-01-02` }), /name has a word of over 200 letters/);
    refused(parse, row({ 3: `${wide}$FORETAGSNAMN-ORGNAM$2020-01-02` }), /name has a word of over 200 letters/);
    refused(parse, row({ 3: `${many}$FORETAGSNAMN-ORGNAM$2020-01-02` }), /name is too long \(over 1000 bytes once folded\)/);
    refused(parse, row({ 10: `Box 1$$${long}$11122$SE-LAND` }), /postal town has a word of over 200 letters/);
    expect(parse(2, row({ 3: `${'a'.repeat(200)} AB$FORETAGSNAMN-ORGNAM$2020-01-02` })).name).toBe(`${'a'.repeat(200)} AB`);
    expect(parse(2, row({ 9: `${long} ${wide}` })).description).toBe(`${long} ${wide}`);
  });

  it('refuses an SCB line whose name or town folds too long', () => {
    const header = ['ForAndrTyp', 'COAdress', 'Foretagsnamn', 'FtgStat', 'Gatuadress', 'JEStat', 'JurForm', 'Namn', 'Ng1', 'Ng2', 'Ng3', 'Ng4', 'Ng5', 'PeOrgNr', 'PostNr', 'PostOrt', 'RegDatKtid', 'Reklamsparrtyp'];
    const line = (v: Record<string, string>) => `${header.map((h) => v[h] ?? '').join('\t')}\t`;
    const base = { Foretagsnamn: 'Exempel AB', FtgStat: '1', JEStat: '1', JurForm: '49', Ng1: '62100', PeOrgNr: '165566778899', PostNr: '111 51', PostOrt: 'Stockholm', Gatuadress: 'Gatan 1' };
    const { parse } = parserFor('scb', 1, `${header.join('\t')}\t`);
    expect(parse(2, line(base)).name).toBe('Exempel AB');
    refused(parse, line({ ...base, Foretagsnamn: many }), /name is too long/);
    refused(parse, line({ ...base, PostOrt: wide }), /postal town has a word of over 200 letters/);
  });
});

describe('status from both sources', () => {
  it('lets Bolagsverket decide deregistration and proceedings, SCB activity', () => {
    expect(deriveStatus('avregistrerad', 'aktiv', 'aktiv')).toBe('avregistrerad');
    expect(deriveStatus('konkurs', 'aktiv', 'aktiv')).toBe('konkurs');
    expect(deriveStatus('registrerad', 'vilande', 'aktiv')).toBe('vilande');
    // SCB's JEStat 9 (left its population) for a registered organisation: not active, whatever
    // its FtgStat said (found 2026-11-29: FtgStat 9 with JEStat 9 was `aktiv`, with JEStat 1 `vilande`).
    expect(deriveStatus('registrerad', 'avregistrerad', 'aktiv')).toBe('vilande');
    // SCB drops a JEStat 9 line after six months: no more active than the JEStat 9 before it (it was
    // `aktiv` until 2026-11-29, a status_changed back to aktiv for every such company).
    expect(deriveStatus('registrerad', 'saknas', 'vilande')).toBe('vilande');
    // One SCB never listed is as Bolagsverket says.
    expect(deriveStatus('registrerad', null, 'vilande')).toBe('aktiv');
    expect(deriveStatus(null, 'avregistrerad', 'aktiv')).toBe('avregistrerad');
    expect(deriveStatus('saknas', null, 'aktiv')).toBe('avregistrerad');
    expect(deriveStatus(null, null, 'vilande')).toBe('vilande');
  });
});
