// Opens the store, prepares it on first start, listens, runs the background workers, and
// closes all of it in order. Used by `bolag serve` and by the CLI's local register.
import { openStore } from '../store/open-store.js';
import { buildApp, listeningUrlOf } from './app.js';
import { bootstrap } from './bootstrap.js';
import type { ServerOptions } from '../app/context.js';
import { WORKERS, type RunningWorker } from './workers.js';
import type { FastifyInstance } from 'fastify';
import { serveRunsBeside, startIncarnation } from '../app/incarnation.js';

export interface StartOptions extends ServerOptions {
  port?: number;
  host?: string;
  dbPath?: string;
  databaseUrl?: string;
  /** SQLite: where export files are kept (default `exports/` beside the database). */
  exportDir?: string;
  seedCount?: number;
  onSeedProgress?: (done: number, total: number, phase: 'rows' | 'indexes') => void;
  /** Another process is creating the register; this start waits for it. */
  onSeedWait?: () => void;
  /**
   * The store's upkeep on threads (SQLite's WAL checkpoints), for a server that runs for long.
   * Default true; a CLI command's server, which lives for one command, leaves it to SQLite.
   */
  backgroundUpkeep?: boolean;
}

const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** While closing, how often connections that have gone idle are closed. */
const IDLE_SWEEP_MS = 50;

export interface RunningServer {
  /** Base URL of the API, ending in /api/public/v1: the public one when --public-url is given. */
  url: string;
  /** Base URL of the API on the address this process listens on. */
  listenUrl: string;
  /** Set when this start created the local account. */
  apiKey?: string;
  seeded: number;
  close(): Promise<void>;
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const store = await openStore({ dbPath: opts.dbPath, databaseUrl: opts.databaseUrl, exportDir: opts.exportDir });
  try {
    const boot = await bootstrap(store, { seedCount: opts.seedCount, onProgress: opts.onSeedProgress, onWait: opts.onSeedWait });
    const { app, ctx } = await buildApp(store, opts);
    // Before any worker claims: take over the leases of this host's dead processes.
    const incarnation = await startIncarnation(store, { local: opts.workers === 'unless-served' });
    if (opts.backgroundUpkeep !== false) store.startBackgroundUpkeep();
    await app.listen({ port: opts.port ?? 8080, host: opts.host ?? '127.0.0.1' });
    const runWorkers = opts.workers === 'unless-served' ? !(await serveRunsBeside(store)) : opts.workers !== false;
    const workers: RunningWorker[] = runWorkers ? WORKERS.map((start) => start(ctx)) : [];
    let closing: Promise<void> | undefined;
    return {
      url: ctx.baseUrl(),
      listenUrl: listeningUrlOf(app) ?? ctx.baseUrl(),
      apiKey: boot.apiKey,
      seeded: boot.seeded,
      close: () =>
        (closing ??= closeGracefully(app, workers, opts.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS)
          .then(() => incarnation.end().catch(() => undefined))
          .finally(() => store.close())),
    };
  } catch (e) {
    await store.close();
    throw e;
  }
}

/**
 * Stops accepting connections at once; closes idle keep-alive connections at once, and each
 * busy one as soon as its request is answered (so a client that keeps a connection open after a
 * download cannot hold the shutdown); cuts what is still busy after the grace period. The
 * workers stop meanwhile: they hand their claimed jobs back.
 */
async function closeGracefully(app: FastifyInstance, workers: readonly RunningWorker[], graceMs: number): Promise<void> {
  // Stop accepting now, not when Fastify's close reaches its listener a few ticks later (it
  // tolerates the server being closed already).
  app.server.close();
  const idle = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await Promise.all([app.close(), ...workers.map((w) => w.stop())]);
  } finally {
    clearInterval(idle);
    clearTimeout(cut);
  }
}
