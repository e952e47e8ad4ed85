// Runs the server until SIGINT or SIGTERM, then closes it gracefully: stop accepting,
// finish in-flight requests, stop the workers (their jobs stay queued), close the database.
import { startServer } from '../../../server/start.js';
import type { ServeOptions } from './options.js';
import { seedProgress } from '../db/seed-progress.js';
import { INSECURE_WEBHOOKS_WARNING } from '../../../webhooks/insecure.js';
import { serviceRoot } from '../../../core/public-url.js';

export async function serveRun(opts: ServeOptions): Promise<void> {
  const f = opts.factory;
  if (opts.allowInsecureWebhooks) f.io.stderr.write(`${INSECURE_WEBHOOKS_WARNING}\n`);
  const progress = seedProgress(f.io, 'Creating the register');
  const server = await startServer({
    port: opts.port,
    host: opts.host,
    ...opts.target.location,
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
  f.notice(`bolag serve: listening on ${server.listenUrl} (${opts.target.label})`);
  if (server.url !== server.listenUrl) f.notice(`bolag serve: links point to ${server.url}`);
  f.notice(`bolag serve: API reference at ${serviceRoot(server.url)}/docs`);
  if (server.apiKey) {
    const config = await f.config();
    config.setProfile('local', { base_url: server.url, api_key: server.apiKey });
    f.io.stderr.write('Created the local account. Its API key (shown once; saved as the profile "local"):\n');
    f.io.stdout.write(`${server.apiKey}\n`);
  }
  await waitForStop(f.interrupt);
  f.notice('bolag serve: shutting down…');
  await server.close();
}

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
