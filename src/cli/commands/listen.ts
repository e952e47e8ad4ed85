// `bolag listen`: a local receiver that verifies and prints deliveries, and can pass them on
// (contract §3). With --register-url it also creates the webhook for a tunnel and deletes it
// again when it stops.
import { Command, Option } from 'commander';
import { EVENT_TYPES } from '../../core/values.js';
import { setCompletionValues } from '../completion/values.js';
import { UsageError } from '../errors/index.js';
import type { Factory } from '../factory.js';
import { collectFilter, parseEvents } from './webhooks.js';
import type { ListenOptions } from './listen/options.js';
import { helpNotes } from '../help-layout.js';
import { repeatable } from '../flags/given-once.js';

const collect = (value: string, previous: string[] = []) => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`Invalid --port: "${value}" is not a port number (0 picks a free one).`, { flag: '--port' });
  return n;
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`Invalid --tolerance: "${value}" is not a number of seconds.`, { flag: '--tolerance' });
  return n;
}

function httpUrl(flag: string) {
  return (value: string): string => {
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      throw new UsageError(`Invalid ${flag}: "${value}" is not an absolute URL.`, { flag });
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`Invalid ${flag}: use an http or https URL.`, { flag });
    return value;
  };
}

export function buildListenCommand(f: Factory, runF?: (opts: ListenOptions) => Promise<void>): Command {
  return new Command('listen')
    .summary('Receive, verify and print webhook deliveries locally')
    .description(
      'Listen for webhook deliveries (POST, any path), verify their Bolag-Signature with one or more secrets ' +
        '(any matching v1 signature, 300 s tolerance), answer 200 at once (400 on a bad signature), skip event ids ' +
        'already seen, and print each delivery: pretty on a terminal, one event a line (JSONL) otherwise. ' +
        'Secrets can also come from BOLAG_WEBHOOK_SECRET (comma-separated), keeping them out of the process list. ' +
        'The output of --exec goes to stderr, so stdout stays the event stream. Stop with Ctrl-C.',
    )
    .addOption(new Option('--port <port>', 'Port to listen on (0 picks a free one)').default(4242).argParser(port))
    .addOption(new Option('--host <host>', 'Address to listen on').default('127.0.0.1'))
    .addOption(repeatable(new Option('--secret <whsec>', 'Webhook signing secret (repeatable, or comma-separated)').argParser(collect)))
    .addOption(new Option('--tolerance <seconds>', 'Largest allowed age of the signature timestamp').default(300).argParser(seconds))
    .addOption(new Option('--forward-to <url>', 'Pass each verified delivery on: same bytes, headers and query string').argParser(httpUrl('--forward-to')))
    .addOption(new Option('--exec <command>', 'Run a shell command for each delivery, with the event JSON on stdin and BOLAG_EVENT_ID, BOLAG_EVENT_TYPE in its environment'))
    .addOption(new Option('--format <format>', 'pretty or jsonl; default: pretty on a terminal, jsonl otherwise').choices(['pretty', 'jsonl']))
    .addOption(new Option('--register-url <url>', 'Create a webhook for this public URL (a tunnel to this listener), use its secret, delete it on exit').argParser(httpUrl('--register-url')))
    .addOption(setCompletionValues(new Option('--events <types>', `With --register-url: ${EVENT_TYPES.join(', ')}`).argParser(parseEvents), [...EVENT_TYPES]))
    .addOption(repeatable(new Option('--filter <key=values>', 'With --register-url: restrict company events (repeatable)').argParser(collectFilter)))
    .addHelpText(
      'after',
      helpNotes({
        examples: [
          'bolag listen --secret whsec_… --forward-to http://localhost:3000/webhooks',
          "bolag listen --secret whsec_old,whsec_new --exec 'jq -r .type'",
          'bolag listen --register-url https://abc.tunnel.example.com/ --events company.updated --filter county=01',
        ],
      }),
    )
    .action(async (raw: {
      port: number;
      host: string;
      secret?: string[];
      tolerance: number;
      forwardTo?: string;
      exec?: string;
      format?: 'pretty' | 'jsonl';
      registerUrl?: string;
      events?: string[];
      filter?: Record<string, string[]>;
    }) => {
      const fromEnv = (f.env.BOLAG_WEBHOOK_SECRET ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const secrets = [...new Set([...(raw.secret ?? []), ...fromEnv])];
      if (raw.registerUrl === undefined && (raw.events !== undefined || raw.filter !== undefined)) {
        throw new UsageError('--events and --filter go with --register-url.', { flag: raw.events ? '--events' : '--filter' });
      }
      if (raw.registerUrl !== undefined && raw.events === undefined) {
        throw new UsageError('--register-url needs --events: which events should the new webhook receive?', { flag: '--events' });
      }
      if (secrets.length === 0 && raw.registerUrl === undefined) {
        throw new UsageError('Give the webhook secret with --secret whsec_… (or BOLAG_WEBHOOK_SECRET), or use --register-url.', { flag: '--secret' });
      }
      if (raw.exec !== undefined && raw.exec.trim() === '') throw new UsageError('--exec needs a command.', { flag: '--exec' });
      const opts: ListenOptions = {
        factory: f,
        port: raw.port,
        host: raw.host,
        secrets,
        toleranceSeconds: raw.tolerance,
        format: raw.format ?? (f.io.stdoutIsTTY ? 'pretty' : 'jsonl'),
        forwardTo: raw.forwardTo,
        exec: raw.exec,
        register: raw.registerUrl ? { url: raw.registerUrl, events: raw.events ?? [], filters: raw.filter ?? {} } : undefined,
      };
      if (runF) return runF(opts);
      const { listenRun } = await import('./listen/run.js');
      return listenRun(opts);
    });
}
