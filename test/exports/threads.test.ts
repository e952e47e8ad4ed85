// Large exports are read and encoded on worker threads (compiled code only): the files must be
// byte for byte those of the inline path, whatever the slicing.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './built.js';
import { api, startTestServer, waitForExport, type TestServer } from './helpers.js';

let t: TestServer;
let mode: Record<string, number> = {};

beforeAll(async () => {
  await ensureBuilt();
  const dist = (p: string) => import(join(ROOT, 'dist/src', p));
  const { WORKERS } = await dist('server/workers.js');
  const { createExportWorker } = await dist('exports/worker.js');
  const { threadsAvailable } = await dist('exports/sources.js');
  expect(threadsAvailable()).toBe(true);
  const i = WORKERS.indexOf(createExportWorker);
  // The export worker reads its options at each claim, so each run below picks its own mode.
  WORKERS[i] = (ctx: unknown) =>
    createExportWorker(ctx, {
      get threads() {
        return mode.threads;
      },
      get threadMinRows() {
        return mode.threadMinRows;
      },
      get threadSpan() {
        return mode.threadSpan;
      },
    });
  const { startServer } = await dist('server/start.js');
  t = await startTestServer({ exportPartRows: 500 }, startServer);
}, 180_000);
afterAll(async () => t?.cleanup());

async function run(body: object, m: Record<string, number>) {
  mode = m;
  const created = await api(t, t.key, 'POST', '/exports', body);
  expect(created.status).toBe(202);
  const e = await waitForExport(t, t.key, created.body.data.id);
  expect(e.status).toBe('completed');
  return e.files.map((f: any) => ({ rows: f.rows, bytes: f.bytes, sha256: f.sha256 }));
}

describe('threaded export', () => {
  it.each([
    [{ format: 'csv', filters: { status: 'all', exclude_advertising_blocked: false } }],
    [{ format: 'jsonl', filters: { status: 'all' } }],
    [{ format: 'csv', fields: ['name', 'location', 'sni_codes'], filters: { county: '14,01' } }],
    [{ format: 'jsonl', filters: { near: '59.33,18.06', radius_km: 80 } }],
    [{ format: 'csv', filters: { q: 'bygg' } }],
  ])('writes the same files as the inline path: %j', async (body) => {
    const inline = await run(body, { threads: 0 });
    const threaded = await run(body, { threads: 2, threadMinRows: 0, threadSpan: 257 });
    const oneThread = await run(body, { threads: 1, threadMinRows: 0, threadSpan: 1000 });
    expect(threaded).toEqual(inline);
    expect(oneThread).toEqual(inline);
    expect(inline.reduce((n: number, f: any) => n + f.rows, 0)).toBeGreaterThan(0);
  });
});
