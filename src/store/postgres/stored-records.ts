// The stored records an import of our JSONL compares its lines with (ImportOptions.matchesStored),
// by org nr: only the record's columns, read as arrays and built by one compiled function
// (companyArrayReader), since the driver setting each property of each row object was a fifth of
// such an import's time. The importing thread reads them inside its transaction, the matching
// thread (src/import/ours/match-thread.ts) on a connection of its own.
import type pg from 'pg';
import { companyArrayReader, type CompanyRow } from '../sqlite/company-row.js';
import { PgDb } from './database.js';

const reader = companyArrayReader(true);
const LOCK_TIMEOUT_MS = 1_000;
const BY_ORG_NR = `SELECT ${reader.select} FROM companies c WHERE c.org_nr = ANY($1::text[])`;

/** The companies of a batch's heads (org nrs, null where a line has none; repeats read once), by org nr. */
export async function readStoredRecords(client: pg.ClientBase | pg.Pool, heads: readonly (string | null)[]): Promise<Map<string, CompanyRow>> {
  const records = new Map<string, CompanyRow>();
  const orgNrs = [...new Set(heads.filter((h): h is string => h !== null))];
  if (orgNrs.length === 0) return records;
  const { rows } = await client.query<unknown[]>({ text: BY_ORG_NR, values: [orgNrs], rowMode: 'array' });
  for (const values of rows) {
    const row = reader.build(values);
    records.set(row.org_nr, row);
  }
  return records;
}

/**
 * The matching thread's reads: on a connection of its own, each batch's records as committed when
 * it is read (why that is enough is in match-thread.ts).
 */
export class CommittedRecords {
  private readonly db: PgDb;

  constructor(url: string) {
    // The import's own connection holds its locks on `companies`. A session that asks for more (a
    // migration's ALTER, an operator's REINDEX) waits for the import, and a read here would wait
    // behind that session while the import waits for this thread: a deadlock PostgreSQL cannot
    // see. Such a read fails instead, and the import compares the rest itself.
    this.db = new PgDb(url, { max: 1, lockTimeoutMs: LOCK_TIMEOUT_MS });
  }

  records(heads: readonly (string | null)[]): Promise<Map<string, CompanyRow>> {
    return readStoredRecords(this.db.pool, heads);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
