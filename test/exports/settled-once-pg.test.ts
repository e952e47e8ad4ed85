// Two replicas, one export, on PostgreSQL. A transaction holds the outbox's lock (it took it at
// its first event; an atomic `bolag db import` did so until 2026-11-28, and any long writer of
// events still may) while replica A settles an export: A's settle has updated the
// export's row and waits for that lock, and A's lease lapses. Replica B takes the job over. Until
// 2026-11-27 B set the export back to running once A committed, cleared A's files, ran it again
// and settled it again: two export.completed events, and a download link that stopped working.
// Now a run starts only from queued or running (ExportRepository.start), so B leaves it settled.
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src/app/context.js';
import { Signer } from '../../src/app/signer.js';
import type { RunningWorker } from '../../src/app/worker.js';
import { createExport, validateExportRequest } from '../../src/exports/create.js';
import { createExportWorker } from '../../src/exports/worker.js';
import { openPgStore, type PgStore } from '../../src/store/postgres/pg-store.js';
import { DATABASE_URL, dropSchema, freshSchemaUrl, PG_SKIP_REASON } from '../helpers/pg.js';
import { ProblemLog } from '../../src/app/problem-log.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ctxOf(store: PgStore): ServerContext {
  return { store, signer: new Signer('settled-once'), options: { exportPartRows: 100 }, rateLimiter: null, baseUrl: () => 'http://127.0.0.1:1/api/public/v1', problems: new ProblemLog(undefined) };
}

describe.skipIf(!DATABASE_URL)(`an export settled while an import holds the outbox lock, two replicas ${DATABASE_URL ? '' : PG_SKIP_REASON}`, () => {
  // Only when the suite runs: without DATABASE_URL there is no URL to make one from.
  const { url, schema } = DATABASE_URL ? freshSchemaUrl() : { url: '', schema: '' };
  const stores: PgStore[] = [];
  const workers: RunningWorker[] = [];
  afterAll(async () => {
    for (const w of workers) await w.stop().catch(() => undefined);
    for (const s of stores) await s.close().catch(() => undefined);
    await dropSchema(schema);
  });

  it('is completed once, with one event, and stays completed with its files', async () => {
    const a = await openPgStore(url);
    const b = await openPgStore(url);
    stores.push(a, b);
    const lease = async (key: string) => (await b.db.query<{ lease: string | null }>('SELECT lease FROM jobs WHERE key = $1', [key])).rows[0]?.lease ?? null;

    // The import: one transaction that has written an event (taking the outbox lock) and goes on.
    const importer = await a.db.pool.connect();
    await importer.query('BEGIN');
    await importer.query('INSERT INTO outbox (event) VALUES ($1)', [JSON.stringify({ id: 'evt_import', type: 'company.updated', created_at: new Date().toISOString(), data: {} })]);

    // Replica A runs the export; its settle waits behind the import.
    workers.push(createExportWorker(ctxOf(a), { threads: 0, pollMs: 100 }));
    const e = await createExport(ctxOf(a), 'acc_settled_once', validateExportRequest({ format: 'csv', filters: {} }));
    const key = `export.run:${e.id}`;
    let leaseA: string | null = null;
    for (let i = 0; i < 100 && !leaseA; i++) {
      leaseA = await lease(key);
      await sleep(100);
    }
    expect(leaseA).not.toBeNull();
    // A's settle is waiting: the export's row is locked by it.
    for (let i = 0; i < 100; i++) {
      const waiting = await b.db.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO outbox%'");
      if (waiting.rows.length > 0) break;
      await sleep(100);
    }

    // A's lease lapses (as 30 s of waiting would leave it), and replica B takes the job over.
    await b.db.query("UPDATE jobs SET locked_until = now() - interval '1 second' WHERE key = $1", [key]);
    workers.push(createExportWorker(ctxOf(b), { threads: 0, pollMs: 100 }));
    let leaseB = leaseA;
    for (let i = 0; i < 100 && leaseB === leaseA; i++) {
      await sleep(100);
      leaseB = await lease(key);
    }
    expect(leaseB).not.toBe(leaseA);
    await sleep(300);

    // The import commits: A's settle goes through, and B finds the export settled.
    await importer.query('COMMIT');
    importer.release();
    const statuses: string[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push((await b.exports.getById(e.id))!.status);
      await sleep(100);
    }
    const events = (await b.outbox.readAfter(0, 1000)).filter((x) => x.event.type.startsWith('export.') && x.event.data.export_id === e.id);
    expect(events.map((x) => x.event.type)).toEqual(['export.completed']);
    // Running until A's settle commits just after the import, then completed for good.
    const first = statuses.indexOf('completed');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(new Set(statuses.slice(first))).toEqual(new Set(['completed']));
    const settled = (await b.exports.getById(e.id))!;
    expect(settled.files.length).toBeGreaterThan(0);
    // The files the record lists are there.
    for (const f of settled.files) expect(await b.exportFiles.size(e.id, f.name)).toBe(f.bytes);
  }, 60_000);
});
