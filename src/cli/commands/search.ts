// `bolag search [q] [--<filter> …]`: the builder. It defines and validates the flags only;
// the work is in search/run.ts, loaded when the command runs (not for --help).
import { Command, Option } from 'commander';
import { SEARCH_QUERY_SCHEMA, SEARCH_PARAMS } from '../../core/search-params.js';
import type { Factory } from '../factory.js';
import { UsageError } from '../errors/index.js';
import { addParamFlags, readParamFlags } from '../flags/add-flags.js';
import { addQueryWords } from '../flags/query-words.js';
import { validateParams } from '../flags/validate.js';
import { filterCompletionValues, filterFlags, outputFlags, SEARCH_LABELS } from '../flags/search-flags.js';
import { defaultFormat, OUTPUT_FORMATS, type OutputFormat } from '../output/formatter.js';
import type { SearchOptions } from './search/options.js';
import { helpNotes } from '../help-layout.js';

const EXAMPLES = [
  'bolag search "bageri" --county "Skåne län" --f-skatt',
  'bolag search --category it-konsulter --revenue-min 10000000 --sort -revenue --max 50',
  'bolag search --near 59.33,18.07 --radius-km 2 --sort distance --format csv > nara.csv',
  'bolag search --legal-form aktiebolag --all --format jsonl | jq .org_nr',
  'bolag search --status konkurs --registered-from 2024-01-01 --count',
];

export function buildSearchCommand(f: Factory, runF?: (opts: SearchOptions) => Promise<void>): Command {
  const filters = filterFlags();
  const output = outputFlags();
  const cmd = new Command('search')
    .summary('Search companies')
    .description('Search the register: free text, every filter of GET /companies as a flag, one page or all of them.')
    // Words typed without quotes are one query, as they would be quoted.
    .argument('[q...]', 'Free text over name, industry and org_nr; prefix match on the last word (several words need no quotes).');
  addParamFlags(cmd, filters, { group: 'Filters:', completions: filterCompletionValues() });
  addParamFlags(cmd, output, { group: 'Sorting and paging:', negationNote: false });
  cmd
    .addOption(new Option('--all', 'Follow every page to the end').helpGroup('Sorting and paging:'))
    .addOption(new Option('--max <n>', 'Stop after n companies (follows pages)').helpGroup('Sorting and paging:'))
    .addOption(new Option('--count', 'Print only the number of matches').helpGroup('Sorting and paging:'))
    .addOption(
      new Option('--format <format>', 'Output format (default: table on a terminal, jsonl otherwise)')
        .choices(OUTPUT_FORMATS)
        .helpGroup('Output:'),
    )
    .addHelpText('after', helpNotes({ examples: EXAMPLES }))
    .action(async (words: string[], raw: Record<string, unknown>, self: Command) => {
      const params = readParamFlags(raw, [...filters, ...output]);
      addQueryWords(params, words, filters, self);
      const parsed = validateParams(SEARCH_QUERY_SCHEMA, params, { labels: SEARCH_LABELS, params: Object.keys(SEARCH_PARAMS) });
      const opts: SearchOptions = {
        factory: f,
        params,
        parsed: parsed as Record<string, unknown>,
        format: (raw.format as OutputFormat | undefined) ?? defaultFormat(f.io.stdoutIsTTY),
        all: Boolean(raw.all),
        max: parseMax(raw.max),
        count: Boolean(raw.count),
      };
      if (opts.count && (opts.all || opts.max !== undefined)) {
        throw new UsageError('--count prints only the number of matches; it does not combine with --all or --max.', { flag: '--count' });
      }
      if (opts.all && opts.max !== undefined) {
        throw new UsageError('--all follows every page to the end and --max stops after n companies: give one of them.', { flag: '--max' });
      }
      if (runF) return runF(opts);
      const { searchRun } = await import('./search/run.js');
      return searchRun(opts);
    });
  return cmd;
}

function parseMax(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(String(value)) || !Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`Invalid --max: must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}.`, { flag: '--max' });
  }
  return n;
}
