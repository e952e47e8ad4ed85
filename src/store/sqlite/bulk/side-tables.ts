// The indexes of a freshly loaded register, on two cores, for both bulk loaders (the seeder,
// load.ts, and an import's first load, ../side-indexes.ts): this thread builds the B-tree indexes
// while the index thread (index-thread.ts) builds the SNI table, the spatial and the full-text
// index in a side database, copied in at the end.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import { ALL_SIDE_INDEXES, buildIndexesInBulk, type SideIndexes, type SpatialPack } from '../company-writer.js';
import type { Db } from '../database.js';
import { COMPANY_INDEXES } from '../migrations.js';
import type { IndexThreadData } from './index-thread.js';
import { THREAD_EXEC_ARGV } from '../../../core/thread-exec-argv.js';

const INDEX_THREAD = new URL('./index-thread.js', import.meta.url);
/**
 * SQLite's sorter threads for the B-trees built here once the index thread is done (PRAGMA
 * threads): four of them took the name, place, postal and legal-form indexes of 3.2 million
 * rows from 23.4–25.8 s to 15.0–15.1 s with the second core free (two: 16.6–17.2 s).
 */
const SORT_THREADS_ALONE = 4;
/** What the index thread builds, copied in whole (the virtual tables' shadow tables hold no page numbers). */
const SIDE_TABLES: Readonly<Record<keyof SideIndexes, readonly string[]>> = {
  sni: ['company_sni'],
  fts: ['companies_fts_data', 'companies_fts_idx', 'companies_fts_docsize', 'companies_fts_config'],
  geo: ['companies_geo_node', 'companies_geo_rowid', 'companies_geo_parent'],
};

/** Whether the index thread can run: its compiled file exists (not under a TS test runner). */
export function hasIndexThread(): boolean {
  return existsSync(fileURLToPath(INDEX_THREAD));
}

export interface BesideOptions {
  /** A directory of the caller's for the side database. */
  dir: string;
  /** The index thread's page cache, the full-text index's hash and how it packs the spatial index (IndexThreadData). */
  cacheKiB: number;
  ftsHashBytes?: number;
  spatial: SpatialPack;
  resourceLimits?: ResourceLimits;
  /** More indexes to build on this thread after the B-trees (an import's fingerprints). */
  alsoHere?: readonly string[];
  /** The side indexes to build (all unless said): a first load onto a filled register keeps some. */
  side?: SideIndexes;
  /** Called at the start, after each index built here and after the copy. */
  onIndex?: (done: number, total: number) => void;
}

/**
 * Every index of the companies, on this thread and the index thread at once. A thread that fails
 * (say, out of an import's small heap) leaves its part to this one: the rows are committed, and
 * the register must not be left without these indexes.
 */
export async function buildIndexesBeside(db: Db, opts: BesideOptions): Promise<void> {
  const path = join(opts.dir, 'indexes.db');
  const side = opts.side ?? ALL_SIDE_INDEXES;
  const data: IndexThreadData = { register: resolve(db.name), path, schema: sideSchema(db), cacheKiB: opts.cacheKiB, ftsHashBytes: opts.ftsHashBytes, spatial: opts.spatial, side };
  let threadDone = false;
  // Settles to whether the thread built its part (never rejects).
  const thread = runIndexThread(data, opts.resourceLimits).then(
    () => (threadDone = true),
    (e: unknown) => {
      threadDone = true;
      // Said, not only survived: an import's thread that died of its small heap went unnoticed
      // for a whole round, each first load building these indexes twice.
      // A thread's error comes across as a copy, not always an Error (SQLite's said [object Object]).
      const message = typeof (e as { message?: unknown } | null)?.message === 'string' ? (e as { message: string }).message : String(e);
      process.emitWarning(`the index thread failed (${message}); building its indexes on this thread`, { code: 'BOLAG_INDEX_THREAD' });
      return false;
    },
  );
  // Not company_sni's own: that table is filled by the copy, and indexed after it (below).
  const here = [...COMPANY_INDEXES.filter((sql) => !/ON company_sni\b/.test(sql)), ...(opts.alsoHere ?? [])];
  const total = here.length + 1;
  const sortThreads = db.pragma('threads', { simple: true }) as number;
  try {
    opts.onIndex?.(0, total);
    for (let i = 0; i < here.length; i++) {
      // Once the index thread is done, SQLite's sorter takes the core it leaves: each build from
      // then on sorts its runs on helper threads (an import's first load builds with none until
      // then, as the two cores are busy).
      if (threadDone && sortThreads < SORT_THREADS_ALONE) db.pragma(`threads = ${SORT_THREADS_ALONE}`);
      db.exec(here[i]);
      opts.onIndex?.(i + 1, total);
      // A turn of the event loop, for the index thread's word that it is done.
      await new Promise(setImmediate);
    }
  } finally {
    db.pragma(`threads = ${sortThreads}`);
    // Also when a build here failed: the thread is done with the side file before it goes.
    await thread;
  }
  if (await thread) copySideTables(db, path, side);
  else db.transaction(() => buildIndexesInBulk(db, { spatial: opts.spatial, only: side }))();
  for (const sql of COMPANY_INDEXES) db.exec(sql); // company_sni's, and any missing
  opts.onIndex?.(total, total);
}

/** The CREATE statements the index thread needs, as the register has them. */
function sideSchema(db: Db): string[] {
  return db.prepare("SELECT sql FROM sqlite_master WHERE name IN ('company_sni', 'companies_fts', 'companies_geo')").pluck().all() as string[];
}

function runIndexThread(workerData: IndexThreadData, resourceLimits?: ResourceLimits): Promise<void> {
  return new Promise((done, reject) => {
    const w = new Worker(INDEX_THREAD, { execArgv: THREAD_EXEC_ARGV, workerData, resourceLimits });
    w.once('message', () => done());
    w.once('error', reject);
    w.once('exit', (code) => (code === 0 ? done() : reject(new Error(`index thread exited with ${code}`))));
  });
}

/**
 * Copies what the index thread built: shadow tables are written directly, hence unsafe mode. On
 * a connection of its own: the full-text index keeps its structure cached per connection and
 * reads it again only after another connection's commit, so a copy made on `db` left `db`'s cache
 * stale, and the first full-text write on it after a seed failed at its commit (a segment id
 * taken; SQLITE_CONSTRAINT_PRIMARYKEY).
 */
function copySideTables(db: Db, path: string, side: SideIndexes): void {
  const tables = (Object.keys(SIDE_TABLES) as (keyof SideIndexes)[]).filter((k) => side[k]).flatMap((k) => SIDE_TABLES[k]);
  const copier = new Database(db.name);
  try {
    copier.pragma('busy_timeout = 5000');
    copier.exec(`ATTACH '${path.replaceAll("'", "''")}' AS built`);
    copier.unsafeMode(true);
    copier.transaction(() => {
      for (const t of tables) copier.exec(`DELETE FROM main.${t}; INSERT INTO main.${t} SELECT * FROM built.${t};`);
    })();
  } finally {
    copier.close();
  }
}
