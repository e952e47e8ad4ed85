// A worker thread of the bulk loader (load.ts): makes the chunks of the register it is given
// (src/seed/chunks.ts), each into a database file of its own that the main thread copies whole
// (a table copied whole is copied record by record, undecoded). Also tallies the statistics of
// its rows (stats/count-keys.ts).
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { rowFromCompanyId } from '../../../core/company-id.js';
import { generateChunk } from '../../../seed/chunks.js';
import type { Identities } from '../../../seed/identities.js';
import { COMPANY_COLUMNS, companyToRow } from '../company-row.js';
import { countKeys } from '../stats/count-keys.js';
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
  /** `dim\0value\0status` → rows. */
  counts: [string, number][];
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
  const companies = generateChunk(data.seed, task.k, task.ids);
  const counts = new Map<string, number>();
  db.transaction(() => {
    for (const c of companies) {
      const row = companyToRow(c, rowFromCompanyId(c.id)!);
      insert.run(COMPANY_COLUMNS.map((col) => row[col]));
      for (const [dim, value] of countKeys(row)) {
        const key = `${dim}\u0000${value}\u0000${row.status}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  })();
  db.close();
  parentPort!.postMessage({ k: task.k, counts: [...counts] } satisfies RowsThreadResult);
});
