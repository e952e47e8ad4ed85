// The stored records an import of our JSONL compares its lines with: for each line that names
// its row (ImportRecord.row), that row, else the row of its head's org nr; only the record's
// columns, since most lines match and the internals (the business description above all) would
// be decoded for nothing. The importing thread reads them inside its transaction, the matching
// thread (RecordSnapshot) from its snapshot.
import type { ImportRecord } from '../import-types.js';
import { companyArrayReader, type CompanyRow } from './company-row.js';
import type { Db } from './database.js';

export type StoredRecordReader = (batch: readonly ImportRecord[], heads: readonly (string | null)[]) => Map<string, CompanyRow>;

export function storedRecordReader(db: Db): StoredRecordReader {
  const reader = companyArrayReader(true);
  const by = (column: 'org_nr' | 'rowid') => db.prepare(`SELECT ${reader.select} FROM companies c WHERE c.${column} IN (SELECT value FROM json_each(?))`).raw(true);
  const byOrgNr = by('org_nr');
  const byRow = by('rowid');
  return (batch, heads) => {
    const rows: number[] = [];
    const orgNrs: string[] = [];
    batch.forEach((r, i) => {
      if (heads[i] === null) return;
      if (r.row !== undefined) rows.push(r.row);
      else orgNrs.push(heads[i]!);
    });
    // By org nr, as each line's head names it.
    const records = new Map<string, CompanyRow>();
    for (const [read, keys] of [[byRow, rows], [byOrgNr, orgNrs]] as const) {
      if (keys.length === 0) continue;
      for (const values of read.all(JSON.stringify(keys)) as unknown[][]) {
        const row = reader.build(values);
        records.set(row.org_nr, row);
      }
    }
    return records;
  };
}
