// Lines that only planning, beside what is stored, shows the register cannot take as they are:
// - an SCB line naming nobody (`Foretagsnamn` and `Namn` empty) for a company no import has
//   registered would create a company without a name; it is reported as a line that cannot be
//   read, and read again next week, when Bolagsverket may have named the company;
// - one person's second business in a file (Bolagsverket keys a row by identity and
//   `namnskyddslopnummer`, the register by the ten digits): the file's first line of the number
//   stands and the others are counted, so an unchanged file changes nothing. Last-wins made the
//   lines overwrite each other, a `company.updated` each, every week.
import type { ImportPlanner } from '../../store/import-types.js';
import { ImportError } from '../import-error.js';
import { planSourceRow } from './plan-source-row.js';
import type { ReadOptions, ReadStats } from './read-source.js';
import type { SourceRow } from './source-row.js';

const NO_NAME = 'neither Foretagsnamn nor Namn holds a name, and no import has registered the organisation: it is not created';

export function checkedPlanner(stats: ReadStats, opts: ReadOptions): ImportPlanner {
  // Sole traders' lines are always parsed and planned (read-source.ts), so every one passes here;
  // only theirs are remembered (with --include-persons), a number each.
  const soleTraders = new Set<number>();
  return (record, existing, id, now, quiet) => {
    const row = record.data.row as SourceRow | null;
    if (row !== null) {
      const person = row.isPerson ? Number(row.orgNr) : null;
      if (person !== null && soleTraders.has(person)) {
        stats.repeatedLines = (stats.repeatedLines ?? 0) + 1;
        record.fingerprint = undefined;
        return null;
      }
      if (existing === null && row.name === '') {
        stats.records--;
        stats.errors++;
        opts.onError(row.line, NO_NAME, 'text' in record && typeof record.text === 'string' ? record.text : '');
        if (opts.strict) throw new ImportError(row.line, NO_NAME);
        stats.errorsWithKey++;
        record.fingerprint = undefined;
        return null;
      }
      // Remembered once taken: a nameless first line leaves the number to a later one with a name.
      if (person !== null) soleTraders.add(person);
    }
    return planSourceRow(record, existing, id, now, quiet);
  };
}
