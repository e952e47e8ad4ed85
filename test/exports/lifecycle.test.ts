// The export lifecycle across restarts and failures: queued → running → completed once, or
// failed with an error; export.completed / export.failed recorded once in the outbox.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createExportWorker } from '../../src/exports/worker.js';
import { WORKERS, type WorkerFactory } from '../../src/server/workers.js';
import { api, download, startTestServer, waitForExport, type TestServer } from './helpers.js';
import { createHash } from 'node:crypto';
import { parseCsv } from '../../src/core/csv.js';

let t: TestServer;
const exportFactory = WORKERS.find((w) => w === createExportWorker)!;

beforeAll(async () => {
  t = await startTestServer({ exportPartRows: 500 });
}, 60_000);
afterAll(async () => t?.cleanup());
afterEach(() => swapExportWorker(exportFactory));

function swapExportWorker(factory: WorkerFactory) {
  const i = WORKERS.findIndex((w) => w === createExportWorker || (w as { slow?: boolean }).slow);
  WORKERS[i] = factory;
}

async function exportEvents(id: string) {
  const events = await t.store().outbox.readAfter(0, 100_000);
  return events.filter((e) => e.event.type.startsWith('export.') && e.event.data.export_id === id);
}

async function checkFiles(e: any) {
  let rows = 0;
  for (const f of e.files) {
    const r = await download(f.url);
    expect(r.status).toBe(200);
    expect(createHash('sha256').update(r.bytes).digest('hex')).toBe(f.sha256);
    const text = r.bytes.toString('utf8');
    const lines = e.format === 'csv' ? parseCsv(text).length - 1 : text.split('\n').filter(Boolean).length;
    expect(lines).toBe(f.rows);
    rows += f.rows;
  }
  expect(rows).toBe(e.row_count);
  expect((await t.storedFiles(e.id)).unfinished).toEqual([]);
}

describe('events', () => {
  it('records export.completed once, for the account, with the download link', async () => {
    const created = await api(t, t.key, 'POST', '/exports', { format: 'jsonl', filters: { county: '14' } });
    const e = await waitForExport(t, t.key, created.body.data.id);
    const events = await exportEvents(e.id);
    expect(events).toHaveLength(1);
    const [{ event, account_id }] = events;
    expect(event.type).toBe('export.completed');
    expect(event.id).toMatch(/^evt_/);
    expect(event.data).toEqual({ export_id: e.id, row_count: e.row_count, download_url: e.download_url, expires_at: e.expires_at });
    const local = await t.store().accounts.findAccountByName('local');
    expect(account_id).toBe(local!.id);
  });
});

describe('restart', () => {
  it('finishes an export that was queued when the server stopped', async () => {
    await t.stop();
    await t.start({ workers: false });
    const created = await api(t, t.key, 'POST', '/exports', { format: 'csv', filters: { status: 'all' } });
    await new Promise((r) => setTimeout(r, 300));
    expect((await api(t, t.key, 'GET', `/exports/${created.body.data.id}`)).body.data.status).toBe('queued');
    await t.stop();
    await t.start();
    const e = await waitForExport(t, t.key, created.body.data.id);
    expect(e.status).toBe('completed');
    await checkFiles(e);
    expect(await exportEvents(e.id)).toHaveLength(1);
  });

  it('finishes an export that was running when the server stopped, once', async () => {
    // A worker slowed down so that the run is caught in the middle.
    let reached!: () => void;
    const midway = new Promise<void>((r) => (reached = r));
    const slow: WorkerFactory = Object.assign(
      (ctx: Parameters<WorkerFactory>[0]) =>
        createExportWorker(ctx, {
          batchRows: 100,
          afterBatch: async (rows) => {
            if (rows >= 1200) reached();
            await new Promise((r) => setTimeout(r, 30));
          },
        }),
      { slow: true },
    );
    await t.stop();
    swapExportWorker(slow);
    await t.start();
    const created = await api(t, t.key, 'POST', '/exports', { format: 'csv', filters: { status: 'all', exclude_advertising_blocked: false } });
    const id = created.body.data.id;
    await midway;
    const during = (await api(t, t.key, 'GET', `/exports/${id}`)).body.data;
    expect(during.status).toBe('running');
    expect(during.download_url).toBeNull();
    const partsSoFar = await t.storedFiles(id);
    expect(partsSoFar.finished.length + partsSoFar.unfinished.length).toBeGreaterThan(1); // finished parts and the one being written
    await t.stop();

    swapExportWorker(exportFactory);
    await t.start();
    const e = await waitForExport(t, t.key, id);
    expect(e.status).toBe('completed');
    expect(e.row_count).toBe(3000);
    expect(e.files).toHaveLength(6);
    await checkFiles(e);
    const events = await exportEvents(id);
    expect(events.map((x) => x.event.type)).toEqual(['export.completed']);
    // A further restart does not run it again.
    await t.stop();
    await t.start();
    await new Promise((r) => setTimeout(r, 500));
    const after = (await api(t, t.key, 'GET', `/exports/${id}`)).body.data;
    const withoutLinks = (x: any) => ({ ...x, download_url: null, files: x.files.map((f: any) => ({ ...f, url: null })) });
    expect(withoutLinks(after)).toEqual(withoutLinks(e)); // the port changed with the restart; nothing else
    expect(await exportEvents(id)).toHaveLength(1);
  }, 30_000);
});

describe('failure', () => {
  it('marks the export failed with an error and records export.failed', async () => {
    const repair = await t.breakExportStorage();
    try {
      const created = await api(t, t.key, 'POST', '/exports', { format: 'csv' });
      const e = await waitForExport(t, t.key, created.body.data.id);
      expect(e.status).toBe('failed');
      expect(e.error).toMatchObject({ code: 'storage_error' });
      expect(e.error.message).not.toContain(t.dir);
      expect(e.download_url).toBeNull();
      expect(e.files).toEqual([]);
      expect(e.row_count).toBeNull();
      expect(typeof e.completed_at).toBe('string');
      const events = await exportEvents(e.id);
      expect(events).toHaveLength(1);
      expect(events[0].event).toMatchObject({ type: 'export.failed', data: { export_id: e.id, error: e.error } });
    } finally {
      await repair();
    }
  });
});
