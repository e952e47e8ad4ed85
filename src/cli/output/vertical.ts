// One record as a two-column table (field, value) for `bolag company` on a terminal.
import Table from 'cli-table3';
import { flattenRecord } from '../../core/csv.js';
import { displayValue } from './display-value.js';

export function verticalTable(record: Record<string, unknown>, width: number, color = false): string {
  const flat = flattenRecord(record);
  const keys = Object.keys(flat);
  const keyWidth = Math.max(...keys.map((k) => k.length));
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
    const label = color ? `\u001b[1m${key}\u001b[22m` : key;
    table.push([label, displayValue(key, flat[key])]);
  }
  return table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n') + '\n';
}
