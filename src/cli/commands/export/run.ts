// `bolag export …`: the run functions. create posts the export (with an Idempotency-Key, so the
// client's own retries never create a second one); --wait, wait and download poll it to the
// end; create --wait and download then fetch every part and print the paths written.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { ExportOptions, RecordFormat } from './options.js';
import { CancelError, CliError, ExportFailedError } from '../../errors/index.js';
import type { Factory } from '../../factory.js';
import { OutputSink, terminalView } from '../../output/sink.js';
import { verticalTable } from '../../output/vertical.js';
import { downloadExport, prepareOutDir } from './download.js';
import type { ExportRecord } from './types.js';
import { waitForExport } from './wait.js';

const path = (id: string) => `/exports/${encodeURIComponent(id)}`;

/** The fields worth a glance on a terminal; links shortened to what they are. */
function recordView(e: ExportRecord): Record<string, unknown> {
  return {
    id: e.id,
    status: e.status,
    format: e.format,
    estimated_rows: e.estimated_rows,
    row_count: e.row_count,
    files: e.files.length ? e.files.map((f) => `${f.name} (${f.rows} rows, ${f.bytes} bytes)`).join('\n') : '',
    download_url: e.download_url,
    expires_at: e.expires_at,
    created_at: e.created_at,
    completed_at: e.completed_at,
    error: e.error ? `${e.error.code}: ${e.error.message}` : null,
  };
}

async function printRecord(factory: Factory, e: ExportRecord, format: RecordFormat): Promise<void> {
  const sink = new OutputSink(factory.io.stdout, terminalView(format, factory.io.stdoutIsTTY));
  if (format === 'table') await sink.write(verticalTable(recordView(e), factory.io.columns(), factory.io.color));
  else await sink.write(JSON.stringify(e, null, 2) + '\n');
  // The local register is served on a loopback port only while a command runs: its link is dead
  // once this one exits.
  if (e.download_url && (await factory.connection()).local) {
    factory.notice(`The download_url works only while a bolag command serves the local register; to get the files: bolag export download ${e.id}`);
  }
}

async function printPaths(factory: Factory, paths: string[]): Promise<void> {
  await new OutputSink(factory.io.stdout).write(paths.map((p) => `${p}\n`).join(''));
}

export async function exportRun(opts: ExportOptions): Promise<void> {
  const { factory, action } = opts;
  const client = await factory.httpClient();
  const signal = factory.interrupt;
  const quiet = Boolean(factory.globals().quiet);
  const io = factory.io;
  const outDir = resolve(opts.outDir);
  const outFlag = opts.outDir === '.' ? '' : ` --out ${opts.outDir}`;
  // Ctrl-C: the export goes on on the server; say how to pick it up again.
  const guard = async <T>(resume: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (signal.aborted) throw new CancelError(`Interrupted. The export goes on on the server; to pick it up: ${resume}`);
      throw error;
    }
  };

  switch (action.kind) {
    case 'create': {
      const body: Record<string, unknown> = { format: action.format, filters: action.filters };
      if (action.fields) body.fields = action.fields;
      if (action.wait) await prepareOutDir(outDir, opts.outDir);
      const key = action.idempotencyKey ?? `cli-${randomUUID()}`;
      const res = await client.post<{ data: ExportRecord }>('/exports', body, { headers: { 'Idempotency-Key': key }, signal });
      const created = res.data.data;
      if (!action.wait) {
        await printRecord(factory, created, opts.recordFormat);
        factory.notice(`Wait for it and download it: bolag export download ${created.id}`);
        return;
      }
      // Whatever stops the waiting or the download (a key without exports:read, a network gone),
      // the export was made: its id, or the next try makes another.
      const made = async <T>(work: () => Promise<T>): Promise<T> => {
        try {
          return await guard(`bolag export download ${created.id}${outFlag}`, work);
        } catch (error) {
          if (error instanceof CliError && !(error instanceof CancelError) && !(error instanceof ExportFailedError)) {
            // "Run the same command again" would create another: the download resumes instead.
            const before = error.hint && !error.hint.startsWith('run the same command again') ? `${error.hint}; ` : '';
            error.hint = `${before}export ${created.id} was created and goes on on the server (bolag export download ${created.id}${outFlag})`;
          }
          throw error;
        }
      };
      const done = await made(() => waitForExport(created.id, created, { client, io, signal, quiet }));
      const paths = await made(() => downloadExport(done, { client, io, signal, outDir, quiet }));
      return printPaths(factory, paths);
    }
    case 'get': {
      const res = await client.get<{ data: ExportRecord }>(path(action.id), { signal });
      return printRecord(factory, res.data.data, opts.recordFormat);
    }
    case 'wait': {
      const done = await guard(`bolag export wait ${action.id}`, () => waitForExport(action.id, null, { client, io, signal, quiet }));
      return printRecord(factory, done, opts.recordFormat);
    }
    case 'download': {
      // The export first: an unknown id (404) leaves no folder behind.
      const first = (await client.get<{ data: ExportRecord }>(path(action.id), { signal })).data.data;
      await prepareOutDir(outDir, opts.outDir);
      const done = await guard(`bolag export download ${action.id}${outFlag}`, () => waitForExport(action.id, first, { client, io, signal, quiet }));
      const paths = await guard(`bolag export download ${action.id}${outFlag}`, () => downloadExport(done, { client, io, signal, outDir, quiet }));
      return printPaths(factory, paths);
    }
  }
}
