// `--format json`: one JSON array of records, pretty-printed, streamed page by page.
import type { RecordFormatter } from './formatter.js';
import type { Row } from './table-columns.js';

export class JsonFormatter implements RecordFormatter {
  private count = 0;

  start(): string {
    return '[';
  }

  page(rows: readonly Row[]): string {
    let out = '';
    for (const row of rows) {
      out += (this.count++ === 0 ? '\n  ' : ',\n  ') + JSON.stringify(row, null, 2).replaceAll('\n', '\n  ');
    }
    return out;
  }

  end(): string {
    return this.count === 0 ? ']\n' : '\n]\n';
  }
}
