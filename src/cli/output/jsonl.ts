// `--format jsonl`: one record a line, the API's own shape.
import type { RecordFormatter } from './formatter.js';
import type { Row } from './table-columns.js';

export class JsonlFormatter implements RecordFormatter {
  start(): string {
    return '';
  }

  page(rows: readonly Row[]): string {
    let out = '';
    for (const row of rows) out += JSON.stringify(row) + '\n';
    return out;
  }

  end(): string {
    return '';
  }
}
