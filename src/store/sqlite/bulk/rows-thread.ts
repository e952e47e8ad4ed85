// A worker thread of the bulk loader (load.ts): makes the chunks of the register it is given
// (src/seed/chunks.ts) and writes their rows into its own side database, which the main thread
// copies from. Also tallies the statistics of its rows (stats/count-keys.ts).
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { rowFromCompanyId } from '../../../core/company-id.js';
import { generateChunk } from '../../../seed/chunks.js';
import type { Identities } from '../../../seed/identities.js';
import { COMPANY_COLUMNS, companyToRow } from '../company-row.js';
import { countKeys } from '../stats/count-keys.js';

export interface RowsThreadData {
  seed: string;
  path: string;
  /** CREATE TABLE companies …, as the register has it (the main thread made the table). */
  tableSql: string;
}
export type RowsThreadTask = { k: number; ids: Identities } | { close: true };
export interface RowsThreadResult {
  k: number;
  /** `dim\0value\0status` → rows. */
  counts: [string, number][];
}

const data = workerData as RowsThreadData;
const db = new Database(data.path);
db.pragma('synchronous = OFF');
const insert = db.prepare(`INSERT INTO companies (${COMPANY_COLUMNS.join(', ')}) VALUES (${COMPANY_COLUMNS.map(() => '?').join(', ')})`);

parentPort!.on('message', (task: RowsThreadTask) => {
  if ('close' in task) {
    db.close();
    parentPort!.close();
    return;
  }
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
  parentPort!.postMessage({ k: task.k, counts: [...counts] } satisfies RowsThreadResult);
});
