// Restart takeover: a server SIGKILLed in the middle of an export and started again at once on
// the same host finishes the export straight away. It knows from the dead process's
// incarnation that nobody holds the lease, so it does not wait the lease's 30 s out.
import { execa, type ResultPromise } from 'execa';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { openStore } from '../../src/store/open-store.js';
import { ensureBuilt, ROOT } from './built.js';
import { api, waitForExport } from './helpers.js';

/** The export worker's lease: what a restart would otherwise wait out. */
const EXPORT_LEASE_MS = 30_000;

let dir: string;
let child: ResultPromise | undefined;
let server: RunningServer | undefined;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'bolag-takeover-'));
}, 180_000);
afterAll(async () => {
  child?.kill('SIGKILL');
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a restarted server takes over the export its killed predecessor was running, without waiting for the lease', async () => {
  const dbPath = join(dir, 'register.db');
  const exportDir = join(dir, 'exports');
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
  const id = (await api(ready, ready.key, 'POST', '/exports', { format: 'csv', filters: { status: 'all', exclude_advertising_blocked: false } })).body.data.id;
  for (;;) {
    const e = (await api(ready, ready.key, 'GET', `/exports/${id}`)).body.data;
    if (e.status === 'running' && e.row_count > 0) break;
    expect(e.status).not.toBe('completed');
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  await child;
  child = undefined;
  const killedAt = Date.now();

  server = await startServer({ port: 0, dbPath, exportDir, exportPartRows: 500 });
  // Bounded below the lease: only a takeover can finish it before the lease would have lapsed.
  const e = await waitForExport({ url: server.url }, ready.key, id, EXPORT_LEASE_MS - 10_000);
  expect(Date.now() - killedAt).toBeLessThan(EXPORT_LEASE_MS);
  expect(e).toMatchObject({ status: 'completed', row_count: 3000 });
  expect(e.files).toHaveLength(6);
  const store = await openStore({ dbPath });
  try {
    const events = (await store.outbox.readAfter(0, 100_000)).filter((x) => x.event.data.export_id === id);
    expect(events.map((x) => x.event.type)).toEqual(['export.completed']);
    // The dead incarnation is forgotten; the running server's is the only one left.
    expect(await store.incarnations.onHost((await import('../../src/app/incarnation.js')).hostKey())).toHaveLength(1);
  } finally {
    await store.close();
  }
}, 120_000);
