// `bolag serve` (also `bolag --serve`): the full backend (contract §3).
import { Command, Option } from 'commander';
import { availableParallelism } from 'node:os';
import type { Factory } from '../factory.js';
import { UsageError } from '../errors/index.js';
import { publicApiBase } from '../../core/public-url.js';
import type { ServeOptions } from './serve/options.js';
import { helpNotes } from '../help-layout.js';

/** --public-url as typed (root, mount point or base URL) → the API base URL; refused values exit 2. */
function publicUrl(value: string): string {
  try {
    return publicApiBase(value);
  } catch (e) {
    throw new UsageError(`Invalid --public-url: ${(e as Error).message}`, { flag: '--public-url' });
  }
}

/**
 * A whole number from `min` to `max`, as typed: '' is not 0 (it was, and `--export-part-rows ''`
 * or 0 then wrote an empty part per row until the disk was full).
 */
const wholeNumber = (flag: string, min: number, max = Number.MAX_SAFE_INTEGER) => (value: string) => {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new UsageError(`Invalid ${flag}: "${value}" is not a whole number.`, { flag });
  if (n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`Invalid ${flag}: ${n}; it must be ${range}.`, { flag });
  }
  return n;
};

/**
 * Four processes a core, at least 8: more only share the same cores, and each holds its own
 * memory and database connections (an exploratory run's --processes 1000 swapped the machine to
 * a halt, load 600).
 */
const MAX_PROCESSES = Math.max(8, 4 * availableParallelism());

export function buildServeCommand(f: Factory, runF?: (opts: ServeOptions) => Promise<void>): Command {
  return new Command('serve')
    .summary('Run the Company Data Service')
    .description(
      'Run the full backend: search, exports and webhooks over HTTP. Uses the embedded SQLite register by default, or ' +
        'PostgreSQL with --database-url, which several processes on several machines may serve at once. ' +
        'An empty database gets a generated register on first start, and a local account whose key is printed once ' +
        'and saved as the profile "local". Listening beyond this machine (--host 0.0.0.0), give --public-url too.',
    )
    .addOption(new Option('--port <port>', 'Port to listen on').default(8080).argParser(wholeNumber('--port', 0, 65535)))
    .addOption(new Option('--host <host>', 'Address to listen on').default('127.0.0.1'))
    .addOption(new Option('--seed-count <n>', 'Companies to generate when the register is empty').argParser(wholeNumber('--seed-count', 1)))
    .addOption(
      new Option('--public-url <url>', 'Address clients reach the service at, for the links it hands out: the root (https://api.example.se) or a mount point behind a proxy (https://example.se/bolag); /api/public/v1 is added').argParser(publicUrl),
    )
    .addOption(new Option('--allow-insecure-webhooks', 'Allow http and internal webhook URLs (local development only)'))
    .addOption(new Option('--webhook-retry-schedule <seconds>', 'Comma-separated retry delays in seconds (default 60,300,1800,7200,21600,43200,86400)'))
    .addOption(new Option('--webhook-disable-after <seconds>', 'Seconds a failing webhook has before it is disabled').argParser(wholeNumber('--webhook-disable-after', 0)))
    .addOption(new Option('--export-part-rows <n>', 'Rows per export file part (default 100000)').argParser(wholeNumber('--export-part-rows', 1)))
    .addOption(
      new Option('--processes <n>', `Server processes sharing the port and the database (1: this process alone; at most ${MAX_PROCESSES})`)
        .default(availableParallelism(), 'the number of cores')
        .argParser(wholeNumber('--processes', 1, MAX_PROCESSES)),
    )
    .addOption(new Option('--rate-limit <n>', 'Requests per API key per minute; 0 turns the limit off').argParser(wholeNumber('--rate-limit', 0)))
    .addHelpText(
      'after',
      helpNotes({
        notes: ['The API answers under /api/public/v1; its reference is at /docs in a browser (no key needed).'],
        examples: [
          'bolag serve',
          'bolag serve --port 9000 --db ./register.db --seed-count 50000',
          'bolag serve --host 0.0.0.0 --public-url https://example.se/bolag',
          'bolag serve --database-url postgres://bolag@db.internal/bolag',
        ],
      }),
    )
    .action(async (raw: Record<string, unknown>) => {
      const target = await f.storeTarget();
      let schedule: number[] | undefined;
      if (typeof raw.webhookRetrySchedule === 'string') {
        const parts = raw.webhookRetrySchedule.split(',').map((s) => s.trim());
        schedule = parts.map((s) => (/^\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN));
        if (schedule.some((n) => !Number.isFinite(n))) {
          throw new UsageError('Invalid --webhook-retry-schedule: give seconds separated by commas, e.g. 60,300,1800.', { flag: '--webhook-retry-schedule' });
        }
      }
      const opts: ServeOptions = {
        factory: f,
        port: raw.port as number,
        // `[::]` as an IPv6 address is written in a URL: the address itself is `::`.
        host: (raw.host as string).replace(/^\[(.*)\]$/, '$1'),
        target,
        seedCount: raw.seedCount as number | undefined,
        publicUrl: raw.publicUrl as string | undefined,
        allowInsecureWebhooks: Boolean(raw.allowInsecureWebhooks),
        webhookRetrySchedule: schedule,
        webhookDisableAfter: raw.webhookDisableAfter as number | undefined,
        exportPartRows: raw.exportPartRows as number | undefined,
        rateLimit: raw.rateLimit as number | undefined,
        processes: Math.max(1, raw.processes as number),
      };
      if (runF) return runF(opts);
      const { serveRun } = await import('./serve/run.js');
      return serveRun(opts);
    });
}
