// Opens the store, prepares it on first start, listens, runs the background workers, and
// closes all of it in order. Used by `bolag serve` and by the CLI's local register.
import { openStore } from '../store/open-store.js';
import { buildApp, listeningUrlOf } from './app.js';
import { bootstrap } from './bootstrap.js';
import type { ServerOptions } from '../app/context.js';
import { WORKERS, type RunningWorker } from './workers.js';

export interface StartOptions extends ServerOptions {
  port?: number;
  host?: string;
  dbPath?: string;
  databaseUrl?: string;
  /** SQLite: where export files are kept (default `exports/` beside the database). */
  exportDir?: string;
  seedCount?: number;
  onSeedProgress?: (done: number, total: number, phase: 'rows' | 'indexes') => void;
}

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
    const boot = await bootstrap(store, { seedCount: opts.seedCount, onProgress: opts.onSeedProgress });
    const { app, ctx } = await buildApp(store, opts);
    await app.listen({ port: opts.port ?? 8080, host: opts.host ?? '127.0.0.1' });
    const workers: RunningWorker[] = opts.workers === false ? [] : WORKERS.map((start) => start(ctx));
    let closing: Promise<void> | undefined;
    return {
      url: ctx.baseUrl(),
      listenUrl: listeningUrlOf(app) ?? ctx.baseUrl(),
      apiKey: boot.apiKey,
      seeded: boot.seeded,
      close: () =>
        (closing ??= (async () => {
          await Promise.all(workers.map((w) => w.stop()));
          await app.close();
          await store.close();
        })()),
    };
  } catch (e) {
    await store.close();
    throw e;
  }
}
