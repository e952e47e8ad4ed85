// Our own import format for the bench: the first `count` companies of a register as JSONL (the
// export's shape), optionally with `changedShare` of them renamed.
import { companyArrayReader, rowToCompany } from '../../src/store/sqlite/company-row.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { ChunkedWriter } from './chunked-writer.js';
import { hash } from './random.js';

export function writeOursJsonl(dbPath: string, path: string, count: number, changedShare: number, salt: number): number {
  const store = openSqliteStore(dbPath);
  try {
    const reader = companyArrayReader(true);
    const rows = store.db.prepare(`SELECT ${reader.select} FROM companies c ORDER BY c.rowid LIMIT ?`).raw(true);
    const out = new ChunkedWriter(path, 'utf8');
    let n = 0;
    for (const values of rows.iterate(count) as Iterable<unknown[]>) {
      const company = rowToCompany(reader.build(values), { expand: true });
      if (hash(n, salt) < changedShare) company.name = `${company.name} Ny`;
      out.write(`${JSON.stringify(company)}\n`);
      n++;
    }
    out.close();
    return n;
  } finally {
    store.db.close();
  }
}
