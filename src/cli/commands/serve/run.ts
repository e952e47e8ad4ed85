// Runs the server until SIGINT or SIGTERM, then closes it gracefully: stop accepting, close
// idle connections, let requests in flight finish (10 s at most), stop the workers (they hand
// their claimed jobs back), close the database, exit 0. A second SIGTERM ends it at once.
import { registerDbPath } from '../../../local/paths.js';
import { startServer } from '../../../server/start.js';
import type { ServeOptions } from '../serve.js';
import { seedProgress } from '../db/seed-progress.js';
import { INSECURE_WEBHOOKS_WARNING } from '../../../webhooks/insecure.js';

export async function serveRun(opts: ServeOptions): Promise<void> {
  const f = opts.factory;
  const dbPath = opts.databaseUrl ? undefined : (opts.dbPath ?? registerDbPath(f.env));
  if (opts.allowInsecureWebhooks) f.io.stderr.write(`${INSECURE_WEBHOOKS_WARNING}\n`);
  // Listening for SIGTERM from the start: one that comes while the server starts stops it as soon as it is up.
  const stop = waitForStop(f.interrupt);
  const progress = seedProgress(f.io, 'Creating the register');
  const server = await startServer({
    port: opts.port,
    host: opts.host,
    dbPath,
    databaseUrl: opts.databaseUrl,
    seedCount: opts.seedCount,
    onSeedProgress: progress.update,
    publicUrl: opts.publicUrl,
    allowInsecureWebhooks: opts.allowInsecureWebhooks,
    webhookRetryScheduleSeconds: opts.webhookRetrySchedule,
    webhookDisableAfterSeconds: opts.webhookDisableAfter,
    exportPartRows: opts.exportPartRows,
    rateLimit: opts.rateLimit === undefined ? undefined : { max: opts.rateLimit, windowMs: 60_000 },
    logger: f.globals().verbose,
  });
  progress.done();
  f.defer(() => server.close());
  f.notice(`bolag serve: listening on ${server.url} (${opts.databaseUrl ? 'PostgreSQL' : dbPath})`);
  if (server.apiKey) {
    const config = await f.config();
    config.setProfile('local', { base_url: server.url, api_key: server.apiKey });
    f.io.stderr.write('Created the local account. Its API key (shown once; saved as the profile "local"):\n');
    f.io.stdout.write(`${server.apiKey}\n`);
  }
  await stop;
  f.notice('bolag serve: shutting down…');
  await server.close();
}

/**
 * The first SIGTERM (or Ctrl-C) starts the graceful close. Its listener is then gone, so a
 * second SIGTERM gets Node's default action: the process ends at once.
 */
function waitForStop(interrupt: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGTERM', done);
      interrupt.removeEventListener('abort', done);
      resolve();
    };
    process.once('SIGTERM', done);
    if (interrupt.aborted) done();
    else interrupt.addEventListener('abort', done, { once: true });
  });
}
