// Runs the server until SIGINT or SIGTERM, then closes it gracefully: stop accepting, close
// idle connections, let requests in flight finish (10 s at most), stop the workers (they hand
// their claimed jobs back), close the database, exit 0. A second SIGTERM ends it at once.
// With --processes N > 1 this process is the primary of a cluster (cluster.ts) and each forked
// process runs the server itself, quietly: the primary speaks for all of them.
import { startServer } from '../../../server/start.js';
import type { ServeOptions } from './options.js';
import { SEED_WAIT, seedProgress } from '../db/seed-progress.js';
import { INSECURE_WEBHOOKS_WARNING } from '../../../webhooks/insecure.js';
import { serviceRoot } from '../../../core/public-url.js';
import { processRole, servePrimary, type WorkerMessage } from './cluster.js';
import { SAME_SIGNAL_MS, STOP_SIGNALS } from './stop-signals.js';
import { ensurePortFree } from './port-free.js';

export async function serveRun(opts: ServeOptions): Promise<void> {
  const f = opts.factory;
  const role = processRole();
  if (role !== null) return serveInWorker(opts);
  await ensurePortFree(opts.host, opts.port);
  if (opts.allowInsecureWebhooks) f.io.stderr.write(`${INSECURE_WEBHOOKS_WARNING}\n`);

  if (opts.processes > 1) {
    const cluster = await servePrimary(opts);
    f.notice(`bolag serve: listening on ${cluster.listenUrl} (${[...everyInterface(opts), opts.target.label, `${opts.processes} processes`].join(', ')})`);
    warnLoopbackLinks(opts, cluster.url);
    announceDocs(opts, cluster.url);
    await announceKey(opts, cluster.url, cluster.apiKey);
    await cluster.stopped;
    return;
  }

  // Listening for SIGTERM from the start: one that comes while the server starts stops it as soon as it is up.
  const stop = waitForStop(f.interrupt);
  const progress = seedProgress(f.io, 'Creating the register');
  const server = await startServer({ ...serverOptions(opts), onSeedProgress: progress.update, onSeedWait: () => f.notice(SEED_WAIT) });
  progress.done();
  f.defer(() => server.close());
  f.notice(`bolag serve: listening on ${server.listenUrl} (${[...everyInterface(opts), opts.target.label].join(', ')})`);
  warnLoopbackLinks(opts, server.url);
  announceDocs(opts, server.url);
  await announceKey(opts, server.url, server.apiKey);
  await stop;
  f.notice('bolag serve: shutting down…');
  await server.close();
}

// Every interface: `0` is taken as 0.0.0.0 by the bind.
const UNSPECIFIED = new Set(['0.0.0.0', '0', '::', '::0']);

/** The URL printed is the one to use from this machine; it is not all the server listens on. */
function everyInterface(opts: ServeOptions): string[] {
  return UNSPECIFIED.has(opts.host) ? [`every interface, ${opts.host}`] : [];
}

/**
 * Listening on every interface for other machines, without --public-url: the links the server
 * hands out (download_url, files, export.completed) name the loopback address it knows itself
 * by, which is another machine's own loopback for a client there.
 */
function warnLoopbackLinks(opts: ServeOptions, url: string): void {
  if (opts.publicUrl !== undefined || !UNSPECIFIED.has(opts.host)) return;
  // Not a notice: --quiet does not hide a setting that hands out dead links.
  opts.factory.io.stderr.write(
    `bolag serve: warning: download links and webhook payloads will name ${url}, which other machines cannot reach; give --public-url with the address clients use (https://bolag.example.se).\n`,
  );
}

function serverOptions(opts: ServeOptions) {
  return {
    port: opts.port,
    host: opts.host,
    ...opts.target.location,
    seedCount: opts.seedCount,
    publicUrl: opts.publicUrl,
    allowInsecureWebhooks: opts.allowInsecureWebhooks,
    webhookRetryScheduleSeconds: opts.webhookRetrySchedule,
    webhookDisableAfterSeconds: opts.webhookDisableAfter,
    exportPartRows: opts.exportPartRows,
    rateLimit: opts.rateLimit === undefined ? undefined : { max: opts.rateLimit, windowMs: 60_000 },
    // Every request with --verbose; else what goes wrong (a 500, a failing worker) and nothing more.
    logger: opts.factory.globals().verbose ? true : ('warn' as const),
  };
}

/** Where links point (when --public-url differs from the listening address) and the docs page. */
function announceDocs(opts: ServeOptions, url: string): void {
  const f = opts.factory;
  if (opts.publicUrl) f.notice(`bolag serve: links point to ${url}`);
  f.notice(`bolag serve: API reference at ${serviceRoot(url)}/docs`);
}

/** A local account made by this start: its key printed once and saved as the profile "local". */
async function announceKey(opts: ServeOptions, url: string, apiKey: string | undefined): Promise<void> {
  if (!apiKey) return;
  const f = opts.factory;
  const config = await f.config();
  // A "local" of another register (another --db, another start) is kept, not dropped without a
  // word: its key is stored nowhere else.
  const before = config.profile('local');
  let kept = '';
  if (before.api_key !== undefined && before.api_key !== apiKey) {
    const name = freeProfileName(config, 'local-previous');
    config.setProfile(name, before);
    kept = ` The profile "local" it replaces (${before.base_url ?? 'no base URL'}) is kept as "${name}".`;
  }
  config.setProfile('local', { base_url: url, api_key: apiKey });
  f.io.stderr.write(`Created the local account.${kept} Its API key (shown once; saved as the profile "local"):\n`);
  f.io.stdout.write(`${apiKey}\n`);
}

/** `base`, or `base-2`, `base-3`, … : the first name no profile has. */
function freeProfileName(config: { has(name: string): boolean }, base: string): string {
  if (!config.has(base)) return base;
  for (let n = 2; ; n++) if (!config.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** One process of a cluster: the database is ready (the primary prepared it); serve until told to stop. */
async function serveInWorker(opts: ServeOptions): Promise<void> {
  const send = (m: WorkerMessage) => process.send?.(m);
  let server;
  try {
    server = await startServer({ ...serverOptions(opts) });
  } catch (e) {
    send({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    throw e;
  }
  opts.factory.defer(() => server.close());
  send({ type: 'listening', url: server.url, listenUrl: server.listenUrl });
  await waitForStop(opts.factory.interrupt);
  await server.close();
}


/**
 * The first SIGTERM (or Ctrl-C) starts the graceful close; a second, a quarter of a second or
 * more later, ends the process at once (exit 143).
 */
function waitForStop(interrupt: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let firstAt: number | undefined;
    const done = () => {
      // A second SIGTERM ends the process at once, however busy its shutdown is. Not one that
      // comes right after the first: when-exit (under conf, loaded once a profile is saved)
      // re-raises the signal it handles, and that one, handled while a shutdown waited for its
      // checkpoint thread, ended a first start with 143.
      if (firstAt !== undefined) {
        if (performance.now() - firstAt > SAME_SIGNAL_MS) process.exit(143);
        return;
      }
      firstAt = performance.now();
      interrupt.removeEventListener('abort', done);
      resolve();
    };
    // Left listening to the end: with this one gone (a `once`), the re-raised signal (above)
    // found no listener and killed the process before it shut down, as cluster.ts already knew.
    for (const signal of STOP_SIGNALS) process.on(signal, done);
    if (interrupt.aborted) done();
    else interrupt.addEventListener('abort', done, { once: true });
  });
}
