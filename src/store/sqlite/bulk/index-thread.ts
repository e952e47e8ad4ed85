// A worker thread of the bulk loader (load.ts): while the main thread builds the B-tree indexes
// of the register, this one builds the SNI table, the spatial index and the full-text index from
// the same rows into a side database; the main thread then copies them in (their tables hold no
// page numbers, so a copy is the index itself).
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { buildIndexesInBulk } from '../company-writer.js';

export interface IndexThreadData {
  /** The register, read. */
  register: string;
  /** The side database to build in. */
  path: string;
  /** CREATE statements of companies, company_sni, companies_fts and companies_geo. */
  schema: string[];
}

const data = workerData as IndexThreadData;
const db = new Database(data.path);
db.pragma('journal_mode = OFF');
db.pragma('synchronous = OFF');
db.pragma('cache_size = -262144');
for (const sql of data.schema) if (!/CREATE TABLE companies\b/i.test(sql)) db.exec(sql);
// The rows come from the register itself, seen through a view named as buildIndexesInBulk expects.
db.exec(`ATTACH '${data.register.replaceAll("'", "''")}' AS register`);
db.exec('CREATE TEMP VIEW companies AS SELECT * FROM register.companies');
db.transaction(() => buildIndexesInBulk(db))();
db.exec("INSERT INTO companies_fts (companies_fts) VALUES ('optimize')");
db.exec('DETACH register');
db.close();
parentPort!.postMessage('built');
