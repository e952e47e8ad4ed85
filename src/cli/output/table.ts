// `--format table`: rows drawn with cli-table3, without borders (like `gh`), fitted to the
// terminal on the first page and kept at those widths for later pages, so that a streamed
// `--all` reads as one table; a later page widens a column only for a value it would cut.
import Table from 'cli-table3';
import type { RecordFormatter } from './formatter.js';
import { COLUMN_GAP, fitColumns, widenForPage, type FittedColumn } from './fit-columns.js';
import type { Row, TableColumn } from './table-columns.js';
import { terminalText } from './terminal-text.js';

const NO_BORDERS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: ' '.repeat(COLUMN_GAP),
};

export class TableFormatter implements RecordFormatter {
  private fitted: FittedColumn[] | undefined;
  private readonly columns: readonly TableColumn[];

  constructor(
    columns: readonly TableColumn[],
    private readonly width: number,
    private readonly color = false,
  ) {
    // Every cell is the server's text: shown, never obeyed, and measured as shown.
    this.columns = columns.map((c) => ({ ...c, value: (row: Row) => terminalText(c.value(row)) }));
  }

  start(): string {
    return '';
  }

  page(rows: readonly Row[]): string {
    if (rows.length === 0) return '';
    const first = this.fitted === undefined;
    this.fitted = first ? fitColumns(this.columns, rows, this.width) : widenForPage(this.fitted!, rows, this.width);
    const fitted = this.fitted;
    const table = new Table({
      chars: NO_BORDERS,
      colWidths: fitted.map((f) => f.width),
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    });
    if (first) {
      const bold = (s: string) => (this.color ? `\u001b[1m${s}\u001b[22m` : s);
      table.push(fitted.map((f) => ({ content: bold(f.column.header), hAlign: f.column.align })));
    }
    for (const row of rows) {
      table.push(fitted.map((f) => ({ content: f.column.value(row), hAlign: f.column.align })));
    }
    return trimLines(table.toString()) + '\n';
  }

  end(): string {
    return '';
  }
}

function trimLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
