// Bulk load of a fresh register: the old rows and the secondary indexes dropped, the rows
// streamed in with COPY (text format, written as they are generated), then each index built
// once, the counts filled, and statistics gathered for the query planner.
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Company } from '../../core/company.js';
import { COMPANY_INDEXES, createIndexesInTx } from './company-migrations.js';
import { REBUILD_COUNTS } from './company-counts.js';
import { companyToPgRow, copyLineWriter, PG_COLUMNS } from './company-row.js';
import type { PgDb } from './database.js';

export type SeedProgress = (done: number, total: number, phase: 'rows' | 'indexes') => void;

/** Memory for each index build (sorting a million keys in memory is several times faster). */
export const BUILD_MEMORY = '256MB';

export async function bulkLoadCompanies(db: PgDb, batches: AsyncIterable<readonly Company[]>, total: number, onProgress?: SeedProgress): Promise<number> {
  const client = await db.pool.connect();
  let done = 0;
  try {
    await client.query('SET synchronous_commit = off');
    for (const { name } of COMPANY_INDEXES) await client.query(`DROP INDEX IF EXISTS ${name}`);
    // Emptied and filled in one transaction, so COPY can write the rows frozen: the index
    // builds that read them next need not set every row's hint bits (a write of the whole table).
    await client.query('BEGIN');
    try {
      await client.query('TRUNCATE companies, company_counts');
      await copyRows(client, batches, (n) => {
        done = n;
        onProgress?.(done, total, 'rows');
      });
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
    onProgress?.(0, 1, 'indexes');
    await buildIndexes(db, client);
    await client.query(REBUILD_COUNTS);
    await client.query('ANALYZE companies');
    await client.query('ANALYZE company_counts');
    onProgress?.(1, 1, 'indexes');
    return done;
  } finally {
    await client.query('RESET synchronous_commit').catch(() => undefined);
    client.release();
  }
}

const copyLine = copyLineWriter(PG_COLUMNS);

async function copyRows(client: pg.PoolClient, batches: AsyncIterable<readonly Company[]>, progress: (done: number) => void): Promise<void> {
  const stream = client.query(copyFrom(`COPY companies (${PG_COLUMNS.join(', ')}) FROM STDIN WITH (FREEZE)`));
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  let rowid = 0;
  try {
    for await (const batch of batches) {
      let chunk = '';
      for (const c of batch) chunk += copyLine(companyToPgRow(c, ++rowid));
      if (!stream.write(chunk)) await new Promise<void>((resolve, reject) => {
        stream.once('drain', resolve);
        stream.once('error', reject);
      });
      progress(rowid);
    }
  } catch (e) {
    stream.destroy(e as Error);
    throw e;
  }
  stream.end();
  await finished;
}

/**
 * Every index, on two connections at once, each taking the next index from one queue as it
 * finishes the last: PostgreSQL builds a B-tree with a parallel worker but a GIN or GiST index on
 * one core, so the full-text, SNI and spatial builds go first, beside the B-trees, and whichever
 * connection is free takes the rest (a fixed split left one idle while the other had a third of
 * the work still to do once migration 4 added four B-trees).
 */
export async function buildIndexes(db: PgDb, client: pg.PoolClient, onIndex?: (done: number, total: number) => void): Promise<void> {
  const slow = new Set(['companies_words', 'companies_sni', 'companies_geo']);
  const queue = [...COMPANY_INDEXES.filter((i) => slow.has(i.name)), ...COMPANY_INDEXES.filter((i) => !slow.has(i.name))];
  const total = queue.length;
  let done = 0;
  onIndex?.(done, total);
  const second = await db.pool.connect();
  try {
    const run = async (c: pg.ClientBase) => {
      await c.query(`SET maintenance_work_mem = '${BUILD_MEMORY}'`);
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
        await c.query('BEGIN');
        try {
          await createIndexesInTx(c, [index]);
          await c.query('COMMIT');
        } catch (e) {
          await c.query('ROLLBACK').catch(() => undefined);
          throw e;
        }
        onIndex?.(++done, total);
      }
      await c.query('RESET maintenance_work_mem');
    };
    await Promise.all([run(client), run(second)]);
  } finally {
    second.release();
  }
}
