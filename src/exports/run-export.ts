// One run of one export: read the matching companies from the store a slice at a time (bounded
// memory), encode them, write them into parts, and settle the export as completed or failed with its event.
// A run always starts from scratch: whatever an interrupted run left is removed.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { newId } from '../core/ids.js';
import { FILTERS_SCHEMA, normalizeFilters, type SearchFilters } from '../core/search-params.js';
import { LIMITS } from '../core/values.js';
import type { ServerContext } from '../app/context.js';
import type { StoredExport } from '../store/exports.js';
import type { Store } from '../store/store.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import { rowEncoder, type EncodedSlice } from './encoders.js';
import { PartWriter } from './part-writer.js';
import { presentExport } from './present.js';
import { defaultThreadCount, inlineSource, threadedSource, threadsAvailable } from './sources.js';

export type RunOutcome = 'completed' | 'failed' | 'missing' | 'settled';

export interface RunControl {
  /** Aborted when the server stops: the run ends with RunInterrupted and leaves the export to the next claim. */
  signal: AbortSignal;
  /** Called now and then while the run is working (the worker renews its lease); false when the run lost its claim. */
  heartbeat(): Promise<boolean>;
  /** Awaited after each batch of rows; tests slow a run down with it. */
  afterBatch?: (rowsSoFar: number) => Promise<void>;
  /** Rows read from the store at a time on the inline path (default 2000). */
  batchRows?: number;
  /** Encoding threads for a large export (default: the cores, at most 3); 0 keeps every run inline. */
  threads?: number;
  /** Exports estimated at fewer rows run inline (default 50,000). */
  threadMinRows?: number;
  /** Row numbers a thread reads at a time (default 1,000). */
  threadSpan?: number;
}

export class RunInterrupted extends Error {
  constructor() {
    super('The export run was interrupted by a shutdown.');
    this.name = 'RunInterrupted';
  }
}

const DEFAULT_BATCH_ROWS = 2000;
const THREAD_MIN_ROWS = 50_000;
/** Row numbers a thread reads at a time: small, so that what a slice allocates dies young. */
const THREAD_SPAN = 1000;
const HEARTBEAT_MS = 5000;
/** How often row_count is brought up to date while running (what `bolag export wait` shows). */
const PROGRESS_MS = 500;
/** Give the HTTP server a turn at least this often. */
const TURN_MS = 25;

class InvalidStoredFilters extends Error {}

export function exportFilters(stored: Record<string, unknown>): SearchFilters {
  const parsed = FILTERS_SCHEMA.safeParse(stored);
  if (!parsed.success) throw new InvalidStoredFilters(parsed.error.issues[0]?.message ?? 'invalid filters');
  return normalizeFilters(parsed.data, { excludeAdvertisingBlocked: true });
}

export async function runExport(ctx: ServerContext, exportId: string, control: RunControl): Promise<RunOutcome> {
  const { store, options } = ctx;
  const found = await store.exports.getById(exportId);
  if (!found) return 'missing';
  if (found.status === 'completed' || found.status === 'failed') return 'settled';
  const e: StoredExport = { ...found, status: 'running', row_count: 0, files: [], error: null };
  // Settled since the read (by a worker whose lease lapsed while it settled): left as it is.
  if (!(await store.exports.start(exportId))) return 'settled';

  const files = store.exportFiles;
  let writer: PartWriter | null = null;
  let source: AsyncGenerator<EncodedSlice> | null = null;
  try {
    await files.clear(exportId);
    const filters = exportFilters(e.filters);
    const encoderOptions = { fields: e.fields, distance: filters.near !== undefined };
    const encoder = rowEncoder(e.format, encoderOptions);
    writer = new PartWriter({
      files,
      exportId,
      partRows: options.exportPartRows ?? LIMITS.exportPartRows,
      preamble: encoder.preamble,
      extension: encoder.extension,
    });
    const threads = control.threads ?? defaultThreadCount();
    const threaded = threads > 0 && e.estimated_rows >= (control.threadMinRows ?? THREAD_MIN_ROWS) && threadsAvailable();
    source = threaded
      ? threadedSource({ location: store.location, filters, format: e.format, encoder: encoderOptions }, await store.companies.lastRow(), { threads, span: control.threadSpan ?? THREAD_SPAN })
      : inlineSource(store, filters, encoder, control.batchRows ?? DEFAULT_BATCH_ROWS);

    let rows = 0;
    let lastTurn = Date.now();
    let lastBeat = lastTurn;
    let lastProgress = lastTurn;
    for await (const slice of source) {
      if (control.signal.aborted) throw new RunInterrupted();
      await writer.write(slice);
      rows += slice.rows;
      if (control.afterBatch) await control.afterBatch(rows);
      const now = Date.now();
      if (now - lastBeat >= HEARTBEAT_MS) {
        lastBeat = now;
        // Our lease lapsed and another worker took the export over: stop, leave it to that run.
        if (!(await control.heartbeat())) throw new RunInterrupted();
      }
      if (now - lastProgress >= PROGRESS_MS) {
        lastProgress = now;
        await store.exports.update(exportId, { row_count: rows });
      }
      if (now - lastTurn >= TURN_MS) {
        await yieldToLoop();
        lastTurn = Date.now();
      }
    }
    if (control.signal.aborted) throw new RunInterrupted();
    const parts = await writer.finish();
    if (!(await control.heartbeat())) throw new RunInterrupted();
    const completedAt = new Date();
    const settled: StoredExport = {
      ...e,
      status: 'completed',
      row_count: rows,
      files: parts,
      completed_at: completedAt.toISOString(),
      expires_at: new Date(completedAt.getTime() + LIMITS.downloadTtlSeconds * 1000).toISOString(),
    };
    const view = presentExport(ctx, settled);
    const ok = await store.exports.settle(
      exportId,
      { status: 'completed', row_count: rows, files: parts, completed_at: settled.completed_at, expires_at: settled.expires_at, error: null },
      {
        id: newId('evt'),
        type: 'export.completed',
        created_at: completedAt.toISOString(),
        data: { export_id: exportId, row_count: rows, download_url: view.download_url, expires_at: settled.expires_at },
      },
    );
    return ok ? 'completed' : 'settled';
  } catch (err) {
    await source?.return(undefined).catch(() => undefined);
    await writer?.abort().catch(() => undefined);
    if (err instanceof RunInterrupted) throw err;
    // The database went away for a moment: not the export's fault. The worker runs it again
    // once the database answers (a run starts from scratch), instead of failing it.
    if (isStoreUnavailable(err)) throw err;
    await files.clear(exportId).catch(() => undefined);
    return (await settleFailed(store, exportId, describeFailure(err))) ? 'failed' : 'settled';
  }
}

/** Settles the export as failed, with its export.failed event; false when it was settled already. */
export function settleFailed(store: Store, exportId: string, error: { code: string; message: string }): Promise<boolean> {
  const at = new Date().toISOString();
  return store.exports.settle(
    exportId,
    // row_count is the rows delivered: none (the count while running was progress, not a result).
    { status: 'failed', row_count: null, files: [], completed_at: at, error },
    { id: newId('evt'), type: 'export.failed', created_at: at, data: { export_id: exportId, error } },
  );
}

export const INTERNAL_FAILURE = {
  code: 'internal_error',
  message: 'The export failed on our side. Create it again; if it persists, contact support with the export id.',
} as const;

/** What the export record says about a failure: enough to act on, no internals. */
function describeFailure(err: unknown): { code: string; message: string } {
  if (err instanceof InvalidStoredFilters) return { code: 'invalid_filters', message: `The export's filters are no longer valid: ${err.message}.` };
  const code = (err as NodeJS.ErrnoException)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    return { code: 'storage_error', message: `The export files could not be written (${code}).` };
  }
  return { ...INTERNAL_FAILURE };
}
