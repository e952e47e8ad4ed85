// Property: whatever text a company field holds, our CSV writer produces a file that a standard
// parser (csv-parse, configured for our dialect) reads back to the same text, once the formula
// guard's quotes are taken off; and no parsed text cell, nor any part of one after a comma, tab
// or line break, can start a spreadsheet formula.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_BOM, CSV_SEPARATOR, csvHeader, csvRow, restoreCell } from '../../src/core/csv.js';
import { csvLineEncoder } from '../../src/exports/encoders.js';

const COLUMNS = ['id', 'name', 'address.street', 'revenue'];
// Text that leans on the characters that matter to CSV and to spreadsheets.
const hostileChar = fc.constantFrom(';', '"', '\r', '\n', '\t', ' ', '=', '+', '-', '@', "'", ',', 'å', '\u2028', '\uFEFF', '😀');
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: fc.oneof(hostileChar, fc.string({ minLength: 1, maxLength: 1 })), maxLength: 30 }),
);
const record = fc.record({
  id: text,
  name: text,
  address: fc.record({ street: text }),
  revenue: fc.oneof(fc.integer({ min: -1e12, max: 1e12 }), fc.constant(null)),
});

function readBack(csv: string): string[][] {
  return parse(csv, { delimiter: CSV_SEPARATOR, bom: true, relax_column_count: false, record_delimiter: '\r\n' }) as string[][];
}

describe('CSV writer (property)', () => {
  it('round-trips any text through csv-parse, and leaves no formula-like text cell', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 5 }), (records) => {
        const csv = CSV_BOM + csvHeader(COLUMNS) + records.map((r) => csvRow(r, COLUMNS)).join('');
        const [header, ...rows] = readBack(csv);
        expect(header).toEqual(COLUMNS);
        expect(rows).toHaveLength(records.length);
        rows.forEach((row, i) => {
          const r = records[i];
          expect(row.slice(0, 3).map(restoreCell)).toEqual([r.id, r.name, r.address.street]);
          expect(row[3]).toBe(r.revenue === null ? '' : String(r.revenue));
          for (const cell of row.slice(0, 3)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
          // Nor where a spreadsheet splitting on commas or tabs (Excel in a comma locale, a
          // paste) starts a cell inside ours.
          for (const cell of row.slice(0, 3)) for (const part of cell.split(/[,\t\r\n]/).slice(1)) expect(part).not.toMatch(/^[=+\-@]/);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('the export encoder writes the same bytes as the CLI writer', () => {
    const encode = csvLineEncoder(COLUMNS);
    fc.assert(
      fc.property(record, (r) => {
        expect(encode(r as never) + '\r\n').toBe(csvRow(r, COLUMNS));
      }),
      { numRuns: 300 },
    );
  });
});
