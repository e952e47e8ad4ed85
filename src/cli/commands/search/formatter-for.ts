// Picks the formatter and the columns for `bolag search` from --format, --fields, --near, --expand.
import { companyCsvColumns } from '../../../core/csv.js';
import type { IOStreams } from '../../io.js';
import { CsvFormatter } from '../../output/csv.js';
import type { RecordFormatter } from '../../output/formatter.js';
import { JsonFormatter } from '../../output/json.js';
import { JsonlFormatter } from '../../output/jsonl.js';
import { TableFormatter } from '../../output/table.js';
import { searchTableColumns } from '../../output/table-columns.js';
import type { SearchOptions } from '../search.js';

export function makeFormatter(opts: Pick<SearchOptions, 'format' | 'parsed'>, io: IOStreams): RecordFormatter {
  const fields = opts.parsed.fields as string[] | undefined;
  const distance = opts.parsed.near !== undefined;
  const expand = Array.isArray(opts.parsed.expand) && opts.parsed.expand.length > 0;
  switch (opts.format) {
    case 'jsonl':
      return new JsonlFormatter();
    case 'json':
      return new JsonFormatter();
    case 'csv':
      return new CsvFormatter(companyCsvColumns({ fields, distance, expand }));
    case 'table':
      return new TableFormatter(
        searchTableColumns({ tableColumns: fields ? companyCsvColumns({ fields, distance }) : undefined, distance }),
        io.columns(),
        io.color,
      );
  }
}
