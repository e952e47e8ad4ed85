// Loading a fresh register on several threads. The rows: worker threads make chunks of the
// register (src/seed/chunks.ts; the same rows on any number of threads), each into a database
// file of its own, and this thread copies them in, in row order, as they come. The indexes: on
// this thread and the index thread at once (side-tables.ts). Then statistics and ANALYZE.
import { existsSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { chunkCount, chunkRows } from '../../../seed/chunks.js';
import { IdentityStream } from '../../../seed/identities.js';
import type { SpatialPack } from '../company-writer.js';
import { type Db, dropCompanyIndexes } from '../database.js';
import { CountTally } from '../stats/count-tally.js';
import { chunkPath } from './chunk-files.js';
import { THREAD_EXEC_ARGV } from '../../../core/thread-exec-argv.js';
import { buildIndexesBeside, hasIndexThread } from './side-tables.js';
import { makeSideFolder } from '../side-folder.js';
import type { RowsThreadData, RowsThreadResult, RowsThreadTask } from './rows-thread.js';

export interface LoadProgress {
  (done: number, total: number, phase: 'rows' | 'indexes'): void;
}

/** The sorter's run size and helper threads while the B-tree indexes are built (see loadInThreads). */
const SORT_RUN_KIB = 16_384;
const SORT_THREADS = 4;
/** The index thread's page cache: its SNI sort runs in memory. */
const SIDE_CACHE_KIB = 262_144;
/** The full-text index gathered in memory up to this size: one segment for the whole register (bulk/index-thread.ts). */
const SEED_FTS_HASH_BYTES = 64 * 1024 * 1024;
/**
 * The spatial index packed from the points in memory: the seeder has the memory, not the time
 * (the pack alone, 1.2 million points: 2.4–2.8 CPU-s in memory, 3.0–3.1 streamed with an
 * import's 4 MiB cache, 3.6–3.7 with this one's; bench/spatial-pack.ts at load 0.5–0.9).
 */
const SEED_SPATIAL_PACK: SpatialPack = 'in-memory';
const ROWS_THREAD = new URL('./rows-thread.js', import.meta.url);

/** Whether threads can be used here: compiled worker files (not under a TS test runner) and a file database. */
export function canLoadInThreads(db: Db): boolean {
  return db.name !== ':memory:' && db.name !== '' && existsSync(fileURLToPath(ROWS_THREAD)) && hasIndexThread();
}

export function seedThreads(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.BOLAG_SEED_THREADS);
  return Number.isInteger(n) && n > 0 ? n : availableParallelism();
}

export async function loadInThreads(db: Db, seed: string, count: number, threads: number, onProgress?: LoadProgress): Promise<number> {
  // Made before anything changes (a folder that cannot be made leaves the register as it was),
  // removed whatever happens after (below).
  const side = makeSideFolder(db.name, '.seed-');
  const cacheSize = db.pragma('cache_size', { simple: true });
  try {
    db.exec('DELETE FROM companies; DELETE FROM company_sni; DELETE FROM companies_fts; DELETE FROM companies_geo; DELETE FROM company_counts;');
    dropCompanyIndexes(db);
    db.pragma('synchronous = OFF');
    // Index builds sort in runs of at most the cache's size, each sorted and merged on SQLite's own
    // helper threads: the B-trees use the second core once the index thread is done (on the
    // 1.2-million register alone on both cores: 12.9 s against 18.9 s in one 256 MiB sort, about
    // the same CPU time).
    db.pragma(`cache_size = ${-SORT_RUN_KIB}`);
    db.pragma(`threads = ${SORT_THREADS}`);
    const tableSql = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'companies'").pluck().get() as string;
    const counts = new CountTally();
    await loadRows(db, { seed, count, threads, side, tableSql, counts, onProgress });
    // The index thread reads the rows just committed while this thread indexes them; one step
    // more for the statistics below.
    let steps = 0;
    await buildIndexesBeside(db, {
      dir: side,
      cacheKiB: SIDE_CACHE_KIB,
      ftsHashBytes: SEED_FTS_HASH_BYTES,
      spatial: SEED_SPATIAL_PACK,
      onIndex: (done, total) => onProgress?.(done, (steps = total + 1), 'indexes'),
    });
    db.transaction(() => counts.flush(db))();
    db.pragma('analysis_limit = 2000');
    db.exec('ANALYZE');
    onProgress?.(steps, steps, 'indexes');
    return count;
  } finally {
    // The side files go whatever fails here: on a full disk the checkpoint throws too, and the
    // .seed- folder was left behind, holding the space the next start needed.
    try {
      db.pragma(`cache_size = ${cacheSize}`);
      db.pragma('threads = 0');
      db.pragma('synchronous = NORMAL');
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      rmSync(side, { recursive: true, force: true });
    }
  }
}

interface RowsJob {
  seed: string;
  count: number;
  threads: number;
  side: string;
  tableSql: string;
  counts: CountTally;
  onProgress?: LoadProgress;
}

/** Chunks handed to the threads as they free up; copied in, in order, as they are done. */
async function loadRows(db: Db, job: RowsJob): Promise<void> {
  const chunks = chunkCount(job.count);
  const threads = Math.max(1, Math.min(job.threads, chunks));
  const identities = new IdentityStream(job.seed);
  const done = new Set<number>(); // chunks made, not yet copied
  let next = 0;
  let copied = 0;
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolveAll, reject) => {
      const give = (t: number) => {
        if (next >= chunks) return;
        const k = next++;
        workers[t].postMessage({ k, ids: identities.take(chunkRows(k, job.count).size) } satisfies RowsThreadTask);
      };
      for (let t = 0; t < threads; t++) {
        const w = new Worker(ROWS_THREAD, { execArgv: THREAD_EXEC_ARGV, workerData: { seed: job.seed, dir: job.side, tableSql: job.tableSql } satisfies RowsThreadData });
        workers.push(w);
        w.on('error', reject);
        w.on('message', (m: RowsThreadResult) => {
          try {
            done.add(m.k);
            job.counts.absorb(m.counts);
            give(t);
            while (done.has(copied)) {
              copyChunk(db, chunkPath(job.side, copied));
              done.delete(copied);
              const { first, size } = chunkRows(copied, job.count);
              copied++;
              job.onProgress?.(first + size - 1, job.count, 'rows');
            }
            if (copied === chunks) resolveAll();
          } catch (e) {
            reject(e);
          }
        });
        // Two chunks each, so that none waits while this thread copies.
        give(t);
        give(t);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => new Promise<void>((exited) => {
      w.once('exit', () => exited());
      w.postMessage({ close: true } satisfies RowsThreadTask);
      setTimeout(() => void w.terminate(), 5000).unref();
    })));
  }
}

/** Appends a chunk's rows: the whole table, so SQLite copies the records as they are. */
function copyChunk(db: Db, path: string): void {
  db.exec(`ATTACH '${path.replaceAll("'", "''")}' AS chunk`);
  try {
    db.exec('INSERT INTO main.companies SELECT * FROM chunk.companies');
  } finally {
    db.exec('DETACH chunk');
  }
  rmSync(path, { force: true });
}
