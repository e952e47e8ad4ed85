// A server killed (SIGKILL) in the middle of an export: the job's lease lapses and the next
// start finishes the export, once, with every row exactly once. Runs the compiled server in a
// child process, on SQLite and, when DATABASE_URL is set, on PostgreSQL (files in the database).
import { execa, type ResultPromise } from 'execa';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { faultDatabase, forEachKind } from '../faults/binary.js';
import { ensureBuilt, ROOT } from './built.js';
import { api, waitForExport } from './helpers.js';

const ROWS = 3000;
const PART_ROWS = 500;

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** The ids in an export's JSONL parts, as the store holds them. */
async function idsInParts(store: Store, exportId: string, names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    let text = '';
    for await (const chunk of store.exportFiles.read(exportId, name)) text += Buffer.from(chunk as Uint8Array).toString('utf8');
    for (const line of text.split('\n')) if (line) ids.push(JSON.parse(line).id);
  }
  return ids;
}

forEachKind((kind) => {
  it('finishes, once, an export whose server was killed while running it; every row exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolag-export-crash-'));
    const db = faultDatabase(kind, dir);
    const exportDir = join(dir, 'exports');
    const location = { ...db.location, exportDir };
    let child: ResultPromise | undefined;
    let server: RunningServer | undefined;
    let store: Store | undefined;
    cleanups.push(async () => {
      child?.kill('SIGKILL');
      await server?.close();
      await store?.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    });
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
      const s = await startServer({ port: 0, ...${JSON.stringify(location)}, seedCount: ${ROWS}, exportPartRows: ${PART_ROWS} });
      console.log(JSON.stringify({ url: s.url, key: s.apiKey }));
      `,
    );
    child = execa('node', [script], { reject: false, buffer: false });
    const ready = await new Promise<{ url: string; key: string }>((resolve, reject) => {
      child!.stdout!.on('data', (c: Buffer) => resolve(JSON.parse(c.toString())));
      child!.on('exit', () => reject(new Error('the server exited')));
    });
    const created = await api(ready, ready.key, 'POST', '/exports', { format: 'jsonl', filters: { status: 'all', exclude_advertising_blocked: false } });
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

    server = await startServer({ port: 0, ...location, exportPartRows: PART_ROWS });
    // Not before the dead worker's lease (30 s) has lapsed.
    const e = await waitForExport({ url: server.url }, ready.key, id, 60_000);
    expect(e.status).toBe('completed');
    expect(e.row_count).toBe(ROWS);
    const names = Array.from({ length: ROWS / PART_ROWS }, (_, i) => `part-${String(i + 1).padStart(3, '0')}.jsonl`);
    expect(e.files).toHaveLength(names.length);

    store = await openStore(location);
    expect((await store.exports.getById(id))?.files.map((f) => f.name)).toEqual(names);
    const ids = await idsInParts(store, id, names);
    expect(ids).toHaveLength(ROWS);
    expect(new Set(ids).size).toBe(ROWS);
    const events = (await store.outbox.readAfter(0, 100_000)).filter((x) => x.event.data.export_id === id);
    expect(events.map((x) => x.event.type)).toEqual(['export.completed']);
  }, 150_000);
});
