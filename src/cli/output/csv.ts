// `--format csv`: the export dialect of src/core/csv.ts (`;`, BOM, header, RFC 4180, dotted columns).
import { CSV_BOM, csvHeader, csvRow } from '../../core/csv.js';
import type { RecordFormatter } from './formatter.js';
import type { Row } from './table-columns.js';

export class CsvFormatter implements RecordFormatter {
  constructor(private readonly columns: readonly string[]) {}

  start(): string {
    return CSV_BOM + csvHeader(this.columns);
  }

  page(rows: readonly Row[]): string {
    let out = '';
    for (const row of rows) out += csvRow(row, this.columns);
    return out;
  }

  end(): string {
    return '';
  }
}
