// A server killed (SIGKILL) in the middle of an export: the job's lease lapses and the next
// start finishes the export, once. Runs the compiled server in a child process.
import { execa, type ResultPromise } from 'execa';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { ensureBuilt, ROOT } from './built.js';
import { api, waitForExport } from './helpers.js';

let dir: string;
let child: ResultPromise | undefined;
let server: RunningServer | undefined;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'bolag-export-crash-'));
}, 180_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('finishes, once, an export whose server was killed while running it', async () => {
  const dbPath = join(dir, 'register.db');
  const exportDir = join(dir, 'exports');
  // The child: the compiled server with an export worker slowed down, so the kill lands mid-run.
  const script = join(dir, 'server.mjs');
  writeFileSync(
    script,
    `
    const dist = (p) => import(${JSON.stringify(join(ROOT, 'dist/src'))} + '/' + p);
    const { WORKERS } = await dist('server/workers.js');
    const { createExportWorker } = await dist('exports/worker.js');
    WORKERS[WORKERS.indexOf(createExportWorker)] = (ctx) =>
      createExportWorker(ctx, { threads: 0, batchRows: 100, afterBatch: () => new Promise((r) => setTimeout(r, 40)) });
    const { startServer } = await dist('server/start.js');
    const s = await startServer({ port: 0, dbPath: ${JSON.stringify(dbPath)}, exportDir: ${JSON.stringify(exportDir)}, seedCount: 3000, exportPartRows: 500 });
    console.log(JSON.stringify({ url: s.url, key: s.apiKey }));
    `,
  );
  child = execa('node', [script], { reject: false, buffer: false });
  const ready = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    child!.stdout!.on('data', (c: Buffer) => resolve(JSON.parse(c.toString())));
    child!.on('exit', () => reject(new Error('the server exited')));
  });
  const created = await api(ready, ready.key, 'POST', '/exports', { format: 'csv', filters: { status: 'all', exclude_advertising_blocked: false } });
  const id = created.body.data.id;
  for (;;) {
    const e = (await api(ready, ready.key, 'GET', `/exports/${id}`)).body.data;
    if (e.status === 'running' && e.row_count > 0) break;
    expect(e.status).not.toBe('completed');
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  await child;
  child = undefined;

  server = await startServer({ port: 0, dbPath, exportDir, exportPartRows: 500 });
  const t = { url: server.url };
  // Not before the dead worker's lease (30 s) has lapsed.
  const e = await waitForExport(t, ready.key, id, 60_000);
  expect(e.status).toBe('completed');
  expect(e.row_count).toBe(3000);
  expect(e.files).toHaveLength(6);
  expect(readdirSync(join(exportDir, id)).sort()).toEqual(['part-001.csv', 'part-002.csv', 'part-003.csv', 'part-004.csv', 'part-005.csv', 'part-006.csv']);
  const store = openSqliteStore(dbPath);
  try {
    const events = (await store.outbox.readAfter(0, 100_000)).filter((x) => x.event.data.export_id === id);
    expect(events.map((x) => x.event.type)).toEqual(['export.completed']);
  } finally {
    await store.close();
  }
}, 120_000);
