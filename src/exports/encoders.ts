// One company record as one line of an export file, in the CSV dialect of src/core/csv.ts
// or as JSONL in the shape the API returns (contract §2.6). The columns are fixed by the
// export's fields and filters, never by the first row.
import { pickFields, type Company } from '../core/company.js';
import { companyCsvColumns, CSV_BOM, csvHeader, csvRow } from '../core/csv.js';
import type { ExportFormat } from '../core/values.js';

export interface RowEncoder {
  /** What every part file starts with: the BOM and header row for CSV, nothing for JSONL. */
  readonly preamble: string;
  /** One record with its line end. */
  encode(company: Company): string;
  readonly extension: string;
  readonly contentType: string;
}

export interface EncoderOptions {
  /** The export's `fields` (id is always included), or null for every field. */
  fields: readonly string[] | null;
  /** The filters have `near`: records carry distance_km. */
  distance: boolean;
}

export function rowEncoder(format: ExportFormat, opts: EncoderOptions): RowEncoder {
  const fields = opts.fields ?? undefined;
  if (format === 'csv') {
    const columns = companyCsvColumns({ fields, distance: opts.distance });
    return {
      preamble: CSV_BOM + csvHeader(columns),
      encode: (c) => csvRow(c as unknown as Record<string, unknown>, columns),
      extension: 'csv',
      contentType: 'text/csv; charset=utf-8',
    };
  }
  return {
    preamble: '',
    encode: (c) => JSON.stringify(pickFields(c, fields)) + '\n',
    extension: 'jsonl',
    contentType: 'application/x-ndjson; charset=utf-8',
  };
}
