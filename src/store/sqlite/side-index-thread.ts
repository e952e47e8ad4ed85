// A worker thread of a first load's last step (side-indexes.ts): while the importer's thread
// builds the B-tree indexes, this one builds the SNI table, the spatial and the full-text index
// from the committed rows into a side database, copied in afterwards. The seeder has its own
// (bulk/index-thread.ts) with a 256 MB cache; an import must stay under 300 MB: 4 MB here.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { buildIndexesInBulk } from './company-writer.js';

export interface SideIndexThreadData {
  /** The register, read. */
  register: string;
  /** The side database to build in. */
  path: string;
  /** CREATE statements of company_sni, companies_fts and companies_geo. */
  schema: string[];
}

const data = workerData as SideIndexThreadData;
const db = new Database(data.path);
db.pragma('journal_mode = OFF');
db.pragma('synchronous = OFF');
// A small cache: each of the three is written in its own order (sorted codes, rows, Hilbert
// order), so pages are filled one after another, and this memory is the importer's.
db.pragma('cache_size = -4096');
db.pragma('temp_store = FILE');
for (const sql of data.schema) db.exec(sql);
// The rows come from the register itself, seen through a view named as buildIndexesInBulk expects.
db.exec(`ATTACH '${data.register.replaceAll("'", "''")}' AS register`);
db.pragma('register.mmap_size = 0');
// Read once, in order: a cache would only hold pages that are not read again.
db.pragma('register.cache_size = -2048');
db.exec('CREATE TEMP VIEW companies AS SELECT * FROM register.companies');
db.transaction(() => buildIndexesInBulk(db))();
db.exec('DETACH register');
db.close();
parentPort!.postMessage('built');
