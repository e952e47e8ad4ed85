// A worker thread of the bulk loaders, the seeder (load.ts) and an import's first load
// (../side-indexes.ts): while the caller builds the B-tree indexes, this one builds the SNI
// table, the spatial and the full-text index from the committed rows into a side database, which
// the caller copies in (side-tables.ts; their tables hold no page numbers, so a copy is the index).
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { buildIndexesInBulk, type SideIndexes, type SpatialPack } from '../company-writer.js';

export interface IndexThreadData {
  /** The register, read. */
  register: string;
  /** The side database to build in. */
  path: string;
  /** CREATE statements of company_sni, companies_fts and companies_geo (side-tables.ts). */
  schema: string[];
  /**
   * The side database's page cache: the seeder's SNI sort runs in memory; an import must stay
   * small (each table is written in its own order, so pages are filled one after another), and
   * so do its sorts, the streamed spatial index's too, in runs of this size spilled to disk.
   */
  cacheKiB: number;
  /** Gather the index in memory up to this size before writing a segment (the seeder's; an import's memory stays small). */
  ftsHashBytes?: number;
  /** How the spatial index is packed (the import streams it: its memory). */
  spatial: SpatialPack;
  /** Which of the three to build. */
  side: SideIndexes;
}

/** FTS5_DEFAULT_HASHSIZE. */
const FTS_DEFAULT_HASH_BYTES = 1024 * 1024;

const data = workerData as IndexThreadData;
const db = new Database(data.path);
db.pragma('journal_mode = OFF');
db.pragma('synchronous = OFF');
db.pragma(`cache_size = ${-data.cacheKiB}`);
db.pragma('temp_store = FILE');
for (const sql of data.schema) db.exec(sql);
// The rows come from the register itself, seen through a view named as buildIndexesInBulk expects.
db.exec(`ATTACH '${data.register.replaceAll("'", "''")}' AS register`);
db.pragma('register.mmap_size = 0');
// Read once, in order: a cache would only hold pages that are not read again.
db.pragma('register.cache_size = -2048');
db.exec('CREATE TEMP VIEW companies AS SELECT * FROM register.companies');
// The seeder's full-text index gathered in memory up to 64 MiB before it is written (FTS5's
// default is 1 MiB): the 1.2 million names are one segment instead of dozens, so the insert
// writes less and the merge after it has nothing left to do (3.1–3.3 → 2.2–2.3 CPU-s in all). Set back
// to the default after, as the setting is stored in the index and an import's transactions
// must stay small.
if (data.ftsHashBytes) db.exec(`INSERT INTO companies_fts (companies_fts, rank) VALUES ('hashsize', ${data.ftsHashBytes})`);
db.transaction(() => buildIndexesInBulk(db, { spatial: data.spatial, only: data.side }))();
if (data.ftsHashBytes) db.exec(`INSERT INTO companies_fts (companies_fts, rank) VALUES ('hashsize', ${FTS_DEFAULT_HASH_BYTES})`);
db.exec('DETACH register');
db.close();
parentPort!.postMessage('built');
