// The CSV dialect of src/core/csv.ts, shared with the export worker.
import { describe, expect, it } from 'vitest';
import { CSV_BOM, companyCsvColumns, csvField, csvHeader, csvRow, flattenRecord, neutraliseCell, parseCsv, restoreCell } from '../../src/core/csv.js';

describe('core/csv', () => {
  it('flattens nested objects with dots and joins arrays', () => {
    expect(flattenRecord({ a: 1, address: { city: 'Lund', postal_code: '222 22' }, sni_codes: ['62010', '62020'], location: null })).toEqual({
      a: 1,
      'address.city': 'Lund',
      'address.postal_code': '222 22',
      sni_codes: '62010,62020',
      location: null,
    });
  });

  it('quotes per RFC 4180: separator, quote, line breaks, edge spaces', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('say "hej"')).toBe('"say ""hej"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(0.25)).toBe('0.25');
    expect(csvField(false)).toBe('false');
  });

  it('neutralises text that a spreadsheet would run as a formula, and only text (OWASP CSV injection)', () => {
    expect(csvField('=1+2')).toBe(`"'=1+2"`);
    expect(csvField('+46 8 123')).toBe(`"'+46 8 123"`);
    expect(csvField('-12000')).toBe(`"'-12000"`);
    expect(csvField('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvField('\tTabb')).toBe(`"'\tTabb"`);
    expect(csvField('\rRetur')).toBe(`"'\rRetur"`);
    expect(csvField("'citat")).toBe(`"''citat"`);
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(-12000)).toBe('-12000');
    expect(csvField(-0.25)).toBe('-0.25');
    for (const text of ['=x', "'x", "''=x", '-1', 'plain', '']) expect(restoreCell(neutraliseCell(text))).toBe(text);
    const columns = ['name', 'revenue'];
    expect(csvRow({ name: '=cmd|\' /C calc\'!A0', revenue: -5 }, columns)).toBe(`"'=cmd|' /C calc'!A0";-5\r\n`);
  });

  it('has fixed columns for the whole file, whatever the first row lacks', () => {
    const cols = companyCsvColumns();
    expect(cols.slice(0, 3)).toEqual(['id', 'org_nr', 'name']);
    expect(cols).toContain('address.city');
    expect(cols).toContain('location.lat');
    expect(cols).not.toContain('address');
    expect(companyCsvColumns({ fields: ['name', 'address'] })).toEqual(['id', 'name', 'address.street', 'address.postal_code', 'address.city']);
    expect(companyCsvColumns({ fields: ['name'], distance: true, expand: true })).toContain('latest_financials.net_revenue');
    expect(companyCsvColumns({ fields: ['name'], distance: true })).toContain('distance_km');
  });

  it('writes header and rows with ; and CRLF, and reads them back', () => {
    const columns = ['id', 'name', 'address.city', 'location.lat', 'sni_codes'];
    const rows = [
      { id: 'c1', name: 'Kaffe; Bröd & "Co" AB', address: { city: 'GÖTEBORG' }, location: { lat: 57.7 }, sni_codes: ['10710'] },
      { id: 'c2', name: 'Rad\nbrytning AB', address: { city: 'LUND' }, location: null, sni_codes: [] },
    ];
    const text = CSV_BOM + csvHeader(columns) + rows.map((r) => csvRow(r, columns)).join('');
    expect(text.split('\r\n')[0]).toBe('\uFEFFid;name;address.city;location.lat;sni_codes');
    expect(parseCsv(text)).toEqual([
      columns,
      ['c1', 'Kaffe; Bröd & "Co" AB', 'GÖTEBORG', '57.7', '10710'],
      ['c2', 'Rad\nbrytning AB', 'LUND', '', ''],
    ]);
  });
});
