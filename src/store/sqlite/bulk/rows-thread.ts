// A worker thread of the bulk loader (load.ts): makes the chunks of the register it is given
// (src/seed/chunks.ts), each into a database file of its own that the main thread copies whole
// (a table copied whole is copied record by record, undecoded). Also tallies the statistics of
// its rows (stats/count-keys.ts).
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { rowFromCompanyId } from '../../../core/company-id.js';
import { chunkCompanies } from '../../../seed/chunks.js';
import type { Identities } from '../../../seed/identities.js';
import { COMPANY_COLUMNS, companyRowValues, companyToRow } from '../company-row.js';
import { type CountSnapshot, CountTally } from '../stats/count-tally.js';
import { chunkPath } from './chunk-files.js';

export interface RowsThreadData {
  seed: string;
  /** Where chunk k goes: `${dir}/chunk-${k}.db`. */
  dir: string;
  /** CREATE TABLE companies …, as the register has it. */
  tableSql: string;
}
export type RowsThreadTask = { k: number; ids: Identities } | { close: true };
export interface RowsThreadResult {
  k: number;
  /** The chunk's statistics (stats/count-tally.ts). */
  counts: CountSnapshot;
}

const data = workerData as RowsThreadData;

parentPort!.on('message', (task: RowsThreadTask) => {
  if ('close' in task) {
    parentPort!.close();
    return;
  }
  const db = new Database(chunkPath(data.dir, task.k));
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(data.tableSql);
  const insert = db.prepare(`INSERT INTO companies (${COMPANY_COLUMNS.join(', ')}) VALUES (${COMPANY_COLUMNS.map(() => '?').join(', ')})`);
  const companies = chunkCompanies(data.seed, task.k, task.ids);
  const counts = new CountTally();
  const values: unknown[] = new Array(COMPANY_COLUMNS.length);
  db.transaction(() => {
    for (const c of companies) {
      const row = companyToRow(c, rowFromCompanyId(c.id)!);
      // Spread, not the array: the driver reads an array element by element through V8's API,
      // about 13,000 instructions a row more (callgrind).
      insert.run(...companyRowValues(row, values));
      counts.add(row);
    }
  })();
  db.close();
  parentPort!.postMessage({ k: task.k, counts: counts.snapshot() } satisfies RowsThreadResult);
});
