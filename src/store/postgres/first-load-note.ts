// Whether an import is a source's first load (no company lists the source yet, or a first load
// of it stopped half-way: ../import-settings.ts), and the note such a load keeps while it runs.
import { firstLoadNote } from '../import-settings.js';
import type { Queryable } from './database.js';

/** No company lists the source (ImportOptions.firstLoadOf), or its first load stopped half-way. */
export async function isFirstLoad(db: Queryable, sourceBit: number | undefined): Promise<boolean> {
  if (sourceBit === undefined) return false;
  const sql = 'SELECT EXISTS (SELECT 1 FROM settings WHERE name = $1) OR NOT EXISTS (SELECT 1 FROM companies WHERE (sources & $2) != 0) AS first';
  return (await db.query<{ first: boolean }>(sql, [firstLoadNote(sourceBit), sourceBit])).rows[0].first;
}

/** Before a batch-by-batch first load's first row. */
export async function beginFirstLoad(db: Queryable, sourceBit: number): Promise<void> {
  await db.query("INSERT INTO settings (name, value) VALUES ($1, 'yes') ON CONFLICT (name) DO NOTHING", [firstLoadNote(sourceBit)]);
}

/** Once the first load has finished, indexes and all: the next import of the source is a weekly one. */
export async function endFirstLoad(db: Queryable, sourceBit: number): Promise<void> {
  await db.query('DELETE FROM settings WHERE name = $1', [firstLoadNote(sourceBit)]);
}
