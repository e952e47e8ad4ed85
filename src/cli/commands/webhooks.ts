// `bolag webhooks create|list|get|update|delete|rotate-secret|test|deliveries` (contract §2.7, §3).
import { Command, Option } from 'commander';
import { EVENT_TYPES } from '../../core/values.js';
import { WEBHOOK_FILTER_KEYS } from '../../core/webhooks.js';
import { setCompletionValues } from '../completion/values.js';
import { UsageError } from '../errors/index.js';
import type { Factory } from '../factory.js';
import type { RecordFormat, ListFormat, WebhooksAction, WebhooksOptions } from './webhooks/options.js';
import { helpNotes } from '../help-layout.js';
import { repeatable } from '../flags/given-once.js';

export function parseEvents(value: string): string[] {
  const events = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (events.length === 0) throw new UsageError('Invalid --events: give at least one event type.', { flag: '--events' });
  for (const e of events) {
    if (!(EVENT_TYPES as readonly string[]).includes(e)) {
      throw new UsageError(`Invalid --events: unknown event type "${e}"; expected ${EVENT_TYPES.join(', ')}.`, { flag: '--events' });
    }
  }
  return [...new Set(events)];
}

/** `--filter county=01,02`, repeatable; the same key twice adds values. */
export function collectFilter(value: string, previous: Record<string, string[]> = {}): Record<string, string[]> {
  const eq = value.indexOf('=');
  const key = (eq < 0 ? '' : value.slice(0, eq)).trim().replace(/-/g, '_');
  const values = (eq < 0 ? '' : value.slice(eq + 1)).split(',').map((s) => s.trim()).filter(Boolean);
  if (!(WEBHOOK_FILTER_KEYS as readonly string[]).includes(key) || values.length === 0) {
    throw new UsageError(`Invalid --filter "${value}": write KEY=VALUE[,VALUE…] with KEY one of ${WEBHOOK_FILTER_KEYS.join(', ')}.`, {
      flag: '--filter',
    });
  }
  return { ...previous, [key]: [...new Set([...(previous[key] ?? []), ...values])] };
}

function positiveInt(flag: string) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 100) throw new UsageError(`Invalid ${flag}: must be a whole number from 1 to 100.`, { flag });
    return n;
  };
}

export function buildWebhooksCommand(f: Factory, runF?: (opts: WebhooksOptions) => Promise<void>): Command {
  const cmd = new Command('webhooks')
    .summary('Manage webhooks: signed notifications of company changes and finished exports')
    .description(
      'Create and manage webhooks. Deliveries are HTTP POSTs signed with the webhook secret (Bolag-Signature); ' +
        'receive and verify them locally with "bolag listen".',
    );
  const run = async (action: WebhooksAction, format: ListFormat | undefined, list = false) => {
    const opts: WebhooksOptions = { factory: f, action, format: format ?? (f.io.stdoutIsTTY ? 'table' : list ? 'jsonl' : 'json') };
    if (runF) return runF(opts);
    const { webhooksRun } = await import('./webhooks/run.js');
    return webhooksRun(opts);
  };
  const recordFormat = () => new Option('--format <format>', 'table or json; default: table on a terminal, json otherwise').choices(['table', 'json']);
  const listFormat = () => new Option('--format <format>', 'table, json or jsonl; default: table on a terminal, jsonl otherwise').choices(['table', 'json', 'jsonl']);
  const eventsOption = (required: boolean) => {
    const o = setCompletionValues(new Option('--events <types>', `Comma-separated: ${EVENT_TYPES.join(', ')}`).argParser(parseEvents), [...EVENT_TYPES]);
    return required ? o.makeOptionMandatory() : o;
  };
  const filterOption = () =>
    repeatable(new Option('--filter <key=values>', `Restrict company events (repeatable); keys: ${WEBHOOK_FILTER_KEYS.join(', ')}`).argParser(collectFilter));

  cmd
    .command('create')
    .summary('Create a webhook (prints its signing secret, once)')
    .addOption(new Option('--url <url>', 'Delivery URL: https on port 443, public').makeOptionMandatory())
    .addOption(eventsOption(true))
    .addOption(filterOption())
    .addOption(recordFormat())
    .addHelpText(
      'after',
      helpNotes({
        examples: [
          'bolag webhooks create --url https://example.com/hooks/bolag --events company.status_changed --filter county=01,Uppsala',
          'bolag webhooks create --url https://example.com/hooks --events export.completed,export.failed',
        ],
      }),
    )
    .action((raw: { url: string; events: string[]; filter?: Record<string, string[]>; format?: RecordFormat }) =>
      run({ kind: 'create', url: raw.url, events: raw.events, filters: raw.filter ?? {} }, raw.format),
    );

  cmd
    .command('list')
    .summary("List the account's webhooks")
    .addOption(listFormat())
    .action((raw: { format?: ListFormat }) => run({ kind: 'list' }, raw.format, true));

  cmd
    .command('get')
    .summary('Show one webhook')
    .argument('<id>', 'Webhook id (whk_…)')
    .addOption(recordFormat())
    .action((id: string, raw: { format?: RecordFormat }) => run({ kind: 'get', id }, raw.format));

  cmd
    .command('update')
    .summary('Change the URL, events or filters, or re-enable a webhook')
    .argument('<id>', 'Webhook id (whk_…)')
    .option('--url <url>', 'New delivery URL')
    .addOption(eventsOption(false))
    .addOption(filterOption())
    .option('--clear-filters', 'Remove every filter')
    .option('--enable', 'Re-enable a failing or disabled webhook')
    .addOption(recordFormat())
    .action(
      (
        id: string,
        raw: { url?: string; events?: string[]; filter?: Record<string, string[]>; clearFilters?: boolean; enable?: boolean; format?: RecordFormat },
      ) => {
        if (raw.clearFilters && raw.filter) throw new UsageError('Give either --filter or --clear-filters, not both.', { flag: '--clear-filters' });
        const filters = raw.clearFilters ? {} : raw.filter;
        if (raw.url === undefined && raw.events === undefined && filters === undefined && !raw.enable) {
          throw new UsageError('Nothing to change: give --url, --events, --filter, --clear-filters or --enable.');
        }
        return run({ kind: 'update', id, url: raw.url, events: raw.events, filters, enable: Boolean(raw.enable) }, raw.format);
      },
    );

  cmd
    .command('delete')
    .summary('Delete a webhook')
    .argument('<id>', 'Webhook id (whk_…)')
    .addOption(recordFormat())
    .action((id: string, raw: { format?: RecordFormat }) => run({ kind: 'delete', id }, raw.format));

  cmd
    .command('rotate-secret')
    .summary('Replace the signing secret (the old one keeps signing too, for 24 hours)')
    .argument('<id>', 'Webhook id (whk_…)')
    .addOption(recordFormat())
    .action((id: string, raw: { format?: RecordFormat }) => run({ kind: 'rotate-secret', id }, raw.format));

  cmd
    .command('test')
    .summary('Send a webhook.test delivery')
    .argument('<id>', 'Webhook id (whk_…)')
    .addOption(recordFormat())
    .action((id: string, raw: { format?: RecordFormat }) => run({ kind: 'test', id }, raw.format));

  cmd
    .command('deliveries')
    .summary('Delivery attempts, newest first: status code, duration, error')
    .argument('<id>', 'Webhook id (whk_…)')
    .addOption(new Option('--limit <n>', 'Attempts per page, 1 to 100 (default 25)').argParser(positiveInt('--limit')))
    .option('--all', 'Every attempt, following pages')
    .addOption(listFormat())
    .action((id: string, raw: { limit?: number; all?: boolean; format?: ListFormat }) =>
      run({ kind: 'deliveries', id, limit: raw.limit, all: Boolean(raw.all) }, raw.format, true),
    );
  return cmd;
}
