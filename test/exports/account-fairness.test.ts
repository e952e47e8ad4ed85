// Fair export runs: an account that queued several exports has its next one run after another
// account's, not all of them first. One worker (one export at a time), exports queued before it
// starts: account A's three, then B's one, then C's one run as A, B, C, A, A.
import { afterAll, expect, it } from 'vitest';
import type { RunningWorker } from '../../src/app/worker.js';
import { createExport, validateExportRequest } from '../../src/exports/create.js';
import { createExportWorker } from '../../src/exports/worker.js';
import { workerRegister, type WorkerRegister } from './worker-register.js';

let register: WorkerRegister | undefined;
let worker: RunningWorker | undefined;
afterAll(async () => register?.close([worker]));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it("runs the accounts' exports in turn, not in the order they were queued", async () => {
  register = workerRegister('export-fairness');
  const { store, ctx } = register;
  const owner = new Map<string, string>();
  for (const account of ['acc_a', 'acc_a', 'acc_a', 'acc_b', 'acc_c']) {
    const e = await createExport(ctx, account, validateExportRequest({ format: 'csv', filters: {} }));
    owner.set(e.id, account);
    await sleep(5); // distinct run_at
  }
  worker = createExportWorker(ctx, { threads: 0, pollMs: 20 });
  const settled = async () => (await store.outbox.readAfter(0, 1000)).filter((x) => x.event.type === 'export.completed').map((x) => owner.get(String(x.event.data.export_id)));
  for (let i = 0; i < 200 && (await settled()).length < 5; i++) await sleep(50);
  expect(await settled()).toEqual(['acc_a', 'acc_b', 'acc_c', 'acc_a', 'acc_a']);
}, 30_000);
