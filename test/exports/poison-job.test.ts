// An export job whose run throws every time past the export's own failure path (here its row
// cannot be read: its files column is not JSON). Until 2026-11-28 the worker put it back 5 s
// later, for good. Now it backs off, gives up after its tries, settles the export failed (one
// export.failed event) and marks the job failed with the last error.
import { afterAll, expect, it } from 'vitest';
import type { RunningWorker } from '../../src/app/worker.js';
import { createExport, validateExportRequest } from '../../src/exports/create.js';
import { createExportWorker } from '../../src/exports/worker.js';
import { workerRegister, type WorkerRegister } from './worker-register.js';

let register: WorkerRegister | undefined;
let worker: RunningWorker | undefined;
afterAll(async () => register?.close([worker]));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('is tried a bounded number of times, then the export is failed once and the job is failed', async () => {
  register = workerRegister('poison-job');
  const { store, ctx } = register;
  const e = await createExport(ctx, 'acc_poison', validateExportRequest({ format: 'csv', filters: {} }));
  store.db.prepare("UPDATE exports SET files = '{not json' WHERE id = ?").run(e.id);
  await expect(store.exports.getById(e.id)).rejects.toThrow(SyntaxError);

  worker = createExportWorker(ctx, { threads: 0, pollMs: 20, errorRetryMs: 5 });
  const job = () => store.db.prepare('SELECT state, attempts, last_error FROM jobs WHERE key = ?').get(`export.run:${e.id}`) as { state: string; attempts: number; last_error: string };
  for (let i = 0; i < 200 && job().state !== 'failed'; i++) await sleep(50);

  expect(job()).toMatchObject({ state: 'failed', attempts: 8 });
  expect(job().last_error).toMatch(/SyntaxError/);
  // Settling wrote an empty file list, so the row reads again: failed, with a reason to show.
  const settled = await store.exports.getById(e.id);
  expect(settled).toMatchObject({ status: 'failed', error: { code: 'internal_error' } });
  const events = (await store.outbox.readAfter(0, 1000)).filter((x) => x.event.type.startsWith('export.'));
  expect(events.map((x) => x.event.type)).toEqual(['export.failed']);
  // And it stays settled: nothing claims it again.
  await sleep(300);
  expect(job()).toMatchObject({ state: 'failed', attempts: 8 });
}, 30_000);

it('is not failed while failing its export cannot be written: the job comes back instead', async () => {
  const { store, ctx } = register!;
  await worker?.stop();
  worker = undefined;
  const e = await createExport(ctx, 'acc_poison', validateExportRequest({ format: 'csv', filters: {} }));
  store.db.prepare("UPDATE exports SET files = '{not json' WHERE id = ?").run(e.id);
  // The outbox refuses every write, so the export.failed event (and with it the settle) cannot be written.
  store.db.exec("CREATE TRIGGER outbox_refuses BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'outbox refuses'); END");
  const job = () => store.db.prepare('SELECT state, attempts, last_error, run_at FROM jobs WHERE key = ?').get(`export.run:${e.id}`) as { state: string; attempts: number; last_error: string | null; run_at: number };
  worker = createExportWorker(ctx, { threads: 0, pollMs: 20, errorRetryMs: 5 });
  for (let i = 0; i < 200 && !/failing the export/.test(job().last_error ?? ''); i++) await sleep(50);
  await worker.stop();
  worker = undefined;
  expect(job()).toMatchObject({ state: 'queued', attempts: 8 });
  expect(job().last_error).toMatch(/failing the export: .*outbox refuses/);
  expect(job().run_at).toBeGreaterThan(Date.now() + 5 * 60_000);
  expect((await store.outbox.readAfter(0, 1000)).filter((x) => x.event.data.export_id === e.id)).toEqual([]);

  // Once the outbox takes writes again, the next time the job comes back fails the export, once
  // (its row still unreadable: the attempt to fail it had started it, which emptied its files).
  store.db.exec('DROP TRIGGER outbox_refuses');
  store.db.prepare("UPDATE exports SET files = '{not json' WHERE id = ?").run(e.id);
  store.db.prepare('UPDATE jobs SET run_at = 0 WHERE key = ?').run(`export.run:${e.id}`);
  worker = createExportWorker(ctx, { threads: 0, pollMs: 20, errorRetryMs: 5 });
  for (let i = 0; i < 200 && job().state !== 'failed'; i++) await sleep(50);
  expect(job().state).toBe('failed');
  expect(await store.exports.getById(e.id)).toMatchObject({ status: 'failed', error: { code: 'internal_error' } });
  expect((await store.outbox.readAfter(0, 1000)).filter((x) => x.event.data.export_id === e.id).map((x) => x.event.type)).toEqual(['export.failed']);
}, 30_000);
