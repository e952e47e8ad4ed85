// `bolag export create|get|wait|download` (spec §4.2, §4.3; contract §2.6, §3): the builder.
// It defines and validates the flags only; the work is in export/*.ts, loaded when a command runs.
import { Command, Option } from 'commander';
import { COMPANY_FIELDS } from '../../core/company.js';
import { FILTER_PARAMS, FILTERS_SCHEMA } from '../../core/search-params.js';
import { EXPORT_FORMATS } from '../../core/values.js';
import { setCompletionValues } from '../completion/values.js';
import { UsageError } from '../errors/index.js';
import type { Factory } from '../factory.js';
import { addParamFlags, readParamFlags } from '../flags/add-flags.js';
import { addQueryWords } from '../flags/query-words.js';
import { filterCompletionValues, filterFlags } from '../flags/search-flags.js';
import { validateParams } from '../flags/validate.js';
import type { RecordFormat, ExportOptions } from './export/options.js';
import { helpNotes } from '../help-layout.js';

const CREATE_EXAMPLES = helpNotes({
  examples: [
    'bolag export create --category snickerier --county "Västra Götalands län" --trend växande --website-status har_hemsida --format csv --wait --out ./export',
    'bolag export create snickeri --county 14 --wait --out ./snickerier',
    'bolag export create --legal-form aktiebolag --revenue-min 10000000 --format jsonl',
    'bolag export create --county 01 --fields name,org_nr,address --idempotency-key monthly-2025-06 --wait',
  ],
});

function parseFields(value: string): string[] {
  const fields = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = fields.find((f) => !(COMPANY_FIELDS as readonly string[]).includes(f));
  if (fields.length === 0 || unknown !== undefined) {
    throw new UsageError(`Invalid --fields: ${unknown ? `unknown field "${unknown}"` : 'give at least one field'}; expected ${COMPANY_FIELDS.join(', ')}.`, {
      flag: '--fields',
    });
  }
  return [...new Set(fields)];
}

function parseKey(value: string): string {
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw new UsageError('Invalid --idempotency-key: use 1 to 255 visible ASCII characters (no spaces).', { flag: '--idempotency-key' });
  }
  return value;
}

export function buildExportCommand(f: Factory, runF?: (opts: ExportOptions) => Promise<void>): Command {
  const cmd = new Command('export')
    .summary('Create and download exports')
    .description(
      'Export a search as CSV or JSONL: the service writes it in parts of 100,000 rows, and the CLI ' +
        'waits for it and downloads every part, checking each against its sha256.',
    );
  const run = async (opts: ExportOptions) => {
    if (runF) return runF(opts);
    const { exportRun } = await import('./export/run.js');
    return exportRun(opts);
  };
  const recordFormat = () =>
    new Option('--format <format>', 'table or json; default: table on a terminal, json otherwise').choices(['table', 'json']);
  const outOption = () => new Option('--out <dir>', 'Folder for the downloaded files (created if missing)').default('.', 'the current folder');
  const defaultRecordFormat = (raw: { format?: RecordFormat }): RecordFormat => raw.format ?? (f.io.stdoutIsTTY ? 'table' : 'json');

  const filters = filterFlags();
  const create = new Command('create')
    .summary('Create an export of a search')
    .description(
      'Create an export of every company matching the filters (the filters of bolag search). ' +
        'Companies with an advertising block are left out unless you pass --no-exclude-advertising-blocked. ' +
        'With --wait, wait for it and download every part into --out, then print the paths written.',
    )
    // As bolag search takes it, so that a search line becomes an export by its command name.
    .argument('[q...]', 'Free text over name, industry and org_nr, as in bolag search (several words need no quotes).');
  addParamFlags(create, filters, { group: 'Filters:', completions: filterCompletionValues() });
  create
    .addOption(new Option('--format <format>', 'File format').choices(EXPORT_FORMATS).default('csv').helpGroup('Export:'))
    .addOption(
      setCompletionValues(new Option('--fields <fields>', 'Comma-separated company fields to include; id is always included').argParser(parseFields), [
        ...COMPANY_FIELDS,
      ]).helpGroup('Export:'),
    )
    .addOption(new Option('--wait', 'Wait for the export and download it').helpGroup('Export:'))
    .addOption(outOption().helpGroup('Export:'))
    .addOption(
      new Option('--idempotency-key <key>', 'Send again with the same key within 24 h to get the same export, not a second one')
        .argParser(parseKey)
        .helpGroup('Export:'),
    )
    .addOption(new Option('--json', 'Print the created export as JSON even on a terminal (without --wait)').helpGroup('Export:'))
    .addHelpText('after', CREATE_EXAMPLES)
    .action(async (words: string[], raw: Record<string, unknown>, self: Command) => {
      const params = readParamFlags(raw, filters);
      addQueryWords(params, words, filters, self);
      validateParams(FILTERS_SCHEMA, params, { params: Object.keys(FILTER_PARAMS) });
      if (raw.out !== '.' && !raw.wait) throw new UsageError('--out needs --wait (or use bolag export download ID --out DIR later).', { flag: '--out' });
      await run({
        factory: f,
        action: {
          kind: 'create',
          format: raw.format as 'csv' | 'jsonl',
          filters: params,
          fields: raw.fields as string[] | undefined,
          idempotencyKey: raw.idempotencyKey as string | undefined,
          wait: Boolean(raw.wait),
        },
        outDir: String(raw.out),
        recordFormat: raw.json ? 'json' : f.io.stdoutIsTTY ? 'table' : 'json',
      });
    });

  const get = new Command('get')
    .summary('Show an export: status, rows, files and links')
    .argument('<id>', 'Export id (exp_…)')
    .addOption(recordFormat())
    .action(async (id: string, raw: { format?: RecordFormat }) =>
      run({ factory: f, action: { kind: 'get', id }, outDir: '.', recordFormat: defaultRecordFormat(raw) }),
    );

  const wait = new Command('wait')
    .summary('Wait until an export is completed (exit 5 if it fails), then show it')
    .argument('<id>', 'Export id (exp_…)')
    .addOption(recordFormat())
    .action(async (id: string, raw: { format?: RecordFormat }) =>
      run({ factory: f, action: { kind: 'wait', id }, outDir: '.', recordFormat: defaultRecordFormat(raw) }),
    );

  const download = new Command('download')
    .summary('Download every part of an export, checking sha256; resumes partial files')
    .description(
      'Download every part of an export into --out (waiting first if it is not completed yet). Each ' +
        'part is checked against its sha256 before it gets its final name; an interrupted download ' +
        'resumes where it stopped. Prints the paths written.',
    )
    .argument('<id>', 'Export id (exp_…)')
    .addOption(outOption())
    .action(async (id: string, raw: { out: string }) => run({ factory: f, action: { kind: 'download', id }, outDir: raw.out, recordFormat: 'json' }));

  return cmd.addCommand(create).addCommand(get).addCommand(wait).addCommand(download);
}
