// The export worker: claims `export.run` jobs from the durable queue, one at a time, and runs
// them. Its lease is renewed while a run works; a graceful stop hands the job back at once, and
// a crash leaves the lease to lapse, so either way the next start finishes the export.
import type { ServerContext } from '../app/context.js';
import type { RunningWorker } from '../app/worker.js';
import type { Job } from '../store/store.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import { INTERNAL_FAILURE, runExport, RunInterrupted, settleFailed, type RunControl } from './run-export.js';

export const EXPORT_JOB = 'export.run';

/** How long a claimed run stays ours without a heartbeat (the run beats every 5 s). */
const LEASE_MS = 30_000;
const IDLE_POLL_MS = 1000;
/** How often the files of expired exports are deleted. */
const SWEEP_MS = 10 * 60_000;
/**
 * A job whose export row is not there (queued by a version before 2026-11-29, which wrote the job
 * first and the row after it; now both go in one transaction) is tried again this many times,
 * 1 s after the first try and twice as long after each: for about 8.5 minutes in all. Five
 * tries a second apart gave up on a row whose insert a slow database held up past 5 s, and that
 * export stayed queued for good; a job whose insert failed (the request answered with an error)
 * is let go once they are spent.
 */
const MISSING_RETRIES = 9;
/**
 * A run that throws past the export's own failure path (its row unreadable, the store refusing
 * its writes) is tried again 5 s later and twice as long after each try, this many times in all
 * (about 10 minutes), then given up: the export settled failed, then the job marked failed with
 * its last error. Until 2026-11-28 such a job came back every 5 s for good. The tries a missing
 * export row took count too (they are few, at the export's creation).
 */
const ERROR_TRIES = 8;
const ERROR_RETRY_MS = 5000;
/** After the tries, how long before failing the export is tried again when that could not be written. */
const GIVE_UP_RETRY_MS = 10 * 60_000;
/** Accounts remembered as served (the least recent forgotten first). */
const SERVED_REMEMBERED = 256;

export interface ExportWorkerOptions {
  /** Awaited after each batch of rows (tests use it to catch a run in the middle). */
  afterBatch?: RunControl['afterBatch'];
  batchRows?: number;
  threads?: number;
  threadMinRows?: number;
  threadSpan?: number;
  pollMs?: number;
  /** The first pause before a run that threw is tried again (doubling after each try). */
  errorRetryMs?: number;
}

/**
 * Deletes the files of exports whose links have expired (they can no longer be downloaded) and
 * empties their file list; the record stays, with its row count and expiry.
 */
export async function sweepExpired(ctx: ServerContext, now: Date = new Date()): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await ctx.store.exports.expired(now.toISOString(), 100);
    for (const e of batch) {
      await ctx.store.exportFiles.clear(e.id);
      await ctx.store.exports.update(e.id, { files: [] });
      removed++;
    }
    if (batch.length < 100) return removed;
  }
}

/** Wakes the worker of this server at once when an export is queued, instead of at its next poll. */
const wakers = new WeakMap<object, () => void>();

export function wakeExportWorker(ctx: ServerContext): void {
  wakers.get(ctx.store)?.();
}

/**
 * BOLAG_EXPORT_SLOWDOWN_MS: a pause after every 100 rows, so that tests and demos can catch a run
 * in the middle (kill a replica mid-export); never set in production.
 */
function slowdownFromEnv(): ExportWorkerOptions {
  const ms = Number(process.env.BOLAG_EXPORT_SLOWDOWN_MS);
  if (!Number.isFinite(ms) || ms <= 0) return {};
  return { threads: 0, batchRows: 100, afterBatch: () => new Promise((r) => setTimeout(r, ms)) };
}

export function createExportWorker(ctx: ServerContext, given: ExportWorkerOptions = {}): RunningWorker {
  const opts = { ...slowdownFromEnv(), ...given };
  const { store } = ctx;
  const stopping = new AbortController();
  let wake: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;
  wakers.set(store, () => wake?.());

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = () => {
        if (timer) clearTimeout(timer);
        wake = null;
        resolve();
      };
      timer = setTimeout(() => wake?.(), ms);
    });

  async function handle(job: Job): Promise<void> {
    const exportId = String(job.payload.export_id);
    const control: RunControl = {
      signal: stopping.signal,
      heartbeat: () => store.jobs.extend(job, LEASE_MS),
      afterBatch: opts.afterBatch,
      batchRows: opts.batchRows,
      threads: opts.threads,
      threadMinRows: opts.threadMinRows,
      threadSpan: opts.threadSpan,
    };
    try {
      const outcome = await runExport(ctx, exportId, control);
      if (outcome === 'missing' && job.attempts < MISSING_RETRIES) {
        await store.jobs.retry(job, new Date(Date.now() + 1000 * 2 ** job.attempts), 'export row not found yet');
        return;
      }
      await store.jobs.complete(job);
    } catch (err) {
      if (err instanceof RunInterrupted) {
        // Hand the job back now (no attempt counted), so the next start need not wait for the lease to lapse.
        await store.jobs.release(job).catch(() => undefined);
        return;
      }
      ctx.problems.warn('export worker: a run failed', err, { export_id: exportId, attempt: job.attempts + 1 });
      if (isStoreUnavailable(err)) await handBackWhenReachable(job);
      else if (job.attempts + 1 >= ERROR_TRIES) await giveUp(job, exportId, String(err));
      else await store.jobs.retry(job, new Date(Date.now() + (opts.errorRetryMs ?? ERROR_RETRY_MS) * 2 ** job.attempts), String(err)).catch(() => undefined);
    }
  }

  /**
   * Fails the export, then the job: only while the job is still ours (a worker that took it over
   * runs the export), and only once the export is settled, so that no export is left running
   * with no job to settle it. When even that cannot be written, the job comes back later.
   */
  async function giveUp(job: Job, exportId: string, error: string): Promise<void> {
    try {
      if (!(await store.jobs.extend(job, LEASE_MS))) return;
      // A run settles only from running; the run may have thrown before it got there. Not
      // startable: settled already.
      if ((await store.exports.start(exportId)) && !(await settleFailed(store, exportId, { ...INTERNAL_FAILURE }))) return;
      await store.jobs.fail(job, error);
    } catch (settling) {
      await store.jobs.retry(job, new Date(Date.now() + GIVE_UP_RETRY_MS), `${error}; failing the export: ${String(settling)}`).catch(() => undefined);
    }
  }

  /**
   * The database went away mid-run: keep trying, backing off, to put the job back due at once,
   * so the export runs again as soon as the database answers rather than a lease later. If it
   * stays away longer than the lease, the lease lapses and any worker takes the job then. No
   * attempt is counted: the database's outage is not a try of the export's (ERROR_TRIES).
   */
  async function handBackWhenReachable(job: Job): Promise<void> {
    const giveUpAt = Date.now() + LEASE_MS;
    for (let wait = 250; !stopping.signal.aborted && Date.now() < giveUpAt; wait = Math.min(wait * 2, 4000)) {
      try {
        await store.jobs.release(job);
        return;
      } catch {
        await sleep(wait);
      }
    }
  }

  /** Accounts whose exports this process ran, the most recent last. */
  const served: string[] = [];

  /**
   * The oldest export of the account served longest ago: first the accounts this process has not
   * run an export for, then those it has, the most recent last, and those with an export running
   * in any process after all of them. An account that queued fifty exports has its next one run
   * after another account's, not fifty before it; when only it has exports due, they run in turn.
   * Jobs queued before 2026-11-28 carry no account and are taken with the first.
   */
  async function claimFairly(): Promise<Job | null> {
    const running = new Set(await store.jobs.leasedValues(EXPORT_JOB, 'account_id'));
    const order = [...served.filter((a) => !running.has(a)), ...running];
    const [job] = await store.jobs.claimMany([EXPORT_JOB], LEASE_MS, 1, { last: { field: 'account_id', values: order } });
    const account = job?.payload.account_id;
    if (typeof account === 'string') {
      const at = served.indexOf(account);
      if (at >= 0) served.splice(at, 1);
      served.push(account);
      if (served.length > SERVED_REMEMBERED) served.shift();
    }
    return job ?? null;
  }

  let lastSweep = 0;
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      if (Date.now() - lastSweep >= SWEEP_MS) {
        lastSweep = Date.now();
        await sweepExpired(ctx).catch((err) => ctx.problems.warn('export worker: sweeping expired files failed (retried)', err));
      }
      let job: Job | null = null;
      try {
        job = await claimFairly();
      } catch (err) {
        if (!stopping.signal.aborted) ctx.problems.warn('export worker: a claim failed (retried)', err);
        job = null;
      }
      if (job) await handle(job);
      else if (!stopping.signal.aborted) await sleep(opts.pollMs ?? IDLE_POLL_MS);
    }
  })();

  return {
    async stop() {
      stopping.abort();
      wake?.();
      await loop;
      if (wakers.get(store)) wakers.delete(store);
    },
  };
}
