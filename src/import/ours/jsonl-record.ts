// A line of our JSONL passed on unparsed: `data` parses it when first read. The store reads
// every record's data in the file's order before planning any of a batch, so a line that is not
// JSON stops the import at the same line as when lines were parsed as they were read.
import type { ImportRecord } from '../../store/import-types.js';
import { ImportError } from '../import-error.js';
import { exportLineKey, exportLineRow } from './export-line.js';

export class JsonlRecord implements ImportRecord {
  private parsed: Record<string, unknown> | undefined;
  readonly key: string | undefined;
  readonly row: number | undefined;

  constructor(
    readonly line: number,
    readonly text: string,
  ) {
    this.key = exportLineKey(text) ?? undefined;
    this.row = this.key === undefined ? undefined : (exportLineRow(text) ?? undefined);
  }

  get data(): Record<string, unknown> {
    return (this.parsed ??= this.parse());
  }

  private parse(): Record<string, unknown> {
    let data: unknown;
    try {
      data = JSON.parse(this.text);
    } catch (e) {
      throw new ImportError(this.line, `not valid JSON (${(e as Error).message})`);
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new ImportError(this.line, 'expected a JSON object');
    return data as Record<string, unknown>;
  }
}
