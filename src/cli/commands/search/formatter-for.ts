// Picks the formatter and the columns for `bolag search` from --format, --fields, --near,
// --expand. Each formatter is imported on demand, so JSONL never loads cli-table3.
import { companyCsvColumns } from '../../../core/csv.js';
import type { IOStreams } from '../../io.js';
import type { RecordFormatter } from '../../output/formatter.js';
import type { SearchOptions } from './options.js';

export async function makeFormatter(opts: Pick<SearchOptions, 'format' | 'parsed'>, io: IOStreams): Promise<RecordFormatter> {
  const fields = opts.parsed.fields as string[] | undefined;
  const distance = opts.parsed.near !== undefined;
  const expand = Array.isArray(opts.parsed.expand) && opts.parsed.expand.length > 0;
  switch (opts.format) {
    case 'jsonl':
      return new (await import('../../output/jsonl.js')).JsonlFormatter();
    case 'json':
      return new (await import('../../output/json.js')).JsonFormatter();
    case 'csv':
      return new (await import('../../output/csv.js')).CsvFormatter(companyCsvColumns({ fields, distance, expand }));
    case 'table': {
      const { TableFormatter } = await import('../../output/table.js');
      const { searchTableColumns } = await import('../../output/table-columns.js');
      return new TableFormatter(
        searchTableColumns({ tableColumns: fields ? companyCsvColumns({ fields, distance }) : undefined, distance }),
        io.columns(),
        io.color,
      );
    }
  }
}
