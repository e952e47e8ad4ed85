// One record as a two-column table (field, value) for `bolag company` on a terminal.
import Table from 'cli-table3';
import { flattenRecord } from '../../core/csv.js';
import { displayValue } from './display-value.js';
import { terminalText } from './terminal-text.js';

export function verticalTable(record: Record<string, unknown>, width: number, color = false): string {
  const flat = flattenRecord(record);
  const keys = Object.keys(flat);
  const keyWidth = Math.max(...keys.map((k) => terminalText(k).length));
  const valueWidth = Math.max(10, width - keyWidth - 2);
  const table = new Table({
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
      bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
    },
    colWidths: [keyWidth, valueWidth],
    wordWrap: true,
    wrapOnWordBoundary: true,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  for (const key of keys) {
    // Keys and values are the server's: shown, never obeyed by the terminal.
    const label = color ? `\u001b[1m${terminalText(key)}\u001b[22m` : terminalText(key);
    table.push([label, terminalText(displayValue(key, flat[key]), { lines: true })]);
  }
  return table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n') + '\n';
}
