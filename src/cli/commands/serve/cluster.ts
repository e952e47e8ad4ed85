// `bolag serve --processes N`: the primary prepares the database once (migrations, the first
// seed, the local account), then forks N copies of the same server (node:cluster) that share one
// port and one database. It prints the address once, restarts a process that dies on its own,
// and on SIGTERM or Ctrl-C stops every process and returns when all have exited.
// Every process runs the background workers too: the store claims each job once, under a lease,
// and the rate limit is counted in the database, so N processes act as one service.
import cluster, { type Worker } from 'node:cluster';
import { bootstrap } from '../../../server/bootstrap.js';
import { openStore } from '../../../store/open-store.js';
import { SEED_WAIT, seedProgress } from '../db/seed-progress.js';
import type { ServeOptions } from './options.js';
import { SAME_SIGNAL_MS, STOP_SIGNALS } from './stop-signals.js';

/** What a worker process tells the primary. */
/** `url`: where links point (the public URL when given); `listenUrl`: the address the process is bound to. */
export type WorkerMessage = { type: 'listening'; url: string; listenUrl: string } | { type: 'failed'; message: string };

export const ROLE_ENV = 'BOLAG_SERVE_PROCESS';
const RESTART_DELAY_MS = 250;

export async function servePrimary(opts: ServeOptions): Promise<{ apiKey?: string; url: string; listenUrl: string; stopped: Promise<void> }> {
  const f = opts.factory;
  const store = await openStore(opts.target.location);
  let apiKey: string | undefined;
  try {
    const progress = seedProgress(f.io, 'Creating the register');
    apiKey = (await bootstrap(store, { seedCount: opts.seedCount, onProgress: progress.update, onWait: () => f.notice(SEED_WAIT) })).apiKey;
    progress.done();
  } finally {
    await store.close();
  }

  const workers = new Map<number, Worker>(); // role → process
  const listened = new Set<number>();
  let stopping = false;
  let firstUrl: (urls: { url: string; listenUrl: string }) => void;
  let failed: (e: Error) => void;
  const urls = new Promise<{ url: string; listenUrl: string }>((resolve, reject) => {
    firstUrl = resolve;
    failed = reject;
  });
  let allExited: () => void;
  const stopped = new Promise<void>((resolve) => (allExited = resolve));

  const stopAll = () => {
    if (stopping) return;
    stopping = true;
    if (workers.size === 0) allExited();
    for (const w of workers.values()) w.process.kill('SIGTERM');
  };
  const fork = (role: number) => {
    const w = cluster.fork({ [ROLE_ENV]: String(role) });
    workers.set(role, w);
    w.on('message', (m: WorkerMessage) => {
      if (m.type === 'listening') {
        listened.add(role);
        firstUrl({ url: m.url, listenUrl: m.listenUrl });
      } else if (m.type === 'failed') {
        failed(new Error(m.message));
      }
    });
    w.on('exit', (code, signal) => {
      workers.delete(role);
      if (stopping) {
        if (workers.size === 0) allExited();
        return;
      }
      if (!listened.has(role)) {
        // It never served: the next would fail alike (port taken, database unreadable).
        failed(new Error(`server process ${role} exited before listening (${signal ?? `code ${code}`})`));
        stopAll();
        return;
      }
      f.notice(`bolag serve: process ${role} ended unexpectedly (${signal ?? `code ${code}`}); restarting it`);
      listened.delete(role);
      setTimeout(() => !stopping && fork(role), RESTART_DELAY_MS);
    });
  };

  let firstSignalAt: number | undefined;
  const onSignal = () => {
    // A second signal ends every process at once, as with one process (run.ts waitForStop); not
    // one right after the first, which is the first re-raised by a library.
    if (firstSignalAt !== undefined) {
      if (performance.now() - firstSignalAt > SAME_SIGNAL_MS) {
        for (const w of workers.values()) w.process.kill('SIGKILL');
        process.exit(143);
      }
      return;
    }
    firstSignalAt = performance.now();
    if (workers.size > 0) f.notice('bolag serve: shutting down…');
    stopAll();
  };
  // `on`, not `once`: a library's exit hook (signal-exit, under conf) re-raises the signal when
  // it finds itself the only listener left, which would end this process before its workers.
  // SIGHUP (the terminal or SSH session closed) is a stop as SIGTERM is, not death mid-request.
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  f.interrupt.addEventListener('abort', onSignal, { once: true });
  for (let i = 0; i < opts.processes; i++) fork(i);
  try {
    return { apiKey, ...(await urls), stopped: stopped.finally(() => STOP_SIGNALS.forEach((s) => process.off(s, onSignal))) };
  } catch (e) {
    stopAll();
    await stopped;
    throw e;
  }
}

/** In a forked process: which one it is (0 runs the background workers). */
export function processRole(): number | null {
  return cluster.isWorker ? Number(process.env[ROLE_ENV] ?? 0) : null;
}
