// `bolag db seed|import|stats`: the register itself, on the embedded database (--db or the default).
import { Command, Option } from 'commander';
import type { Factory } from '../factory.js';
import { UsageError } from '../errors/index.js';
import type { DbOptions } from './db/options.js';

export function buildDbCommand(f: Factory): Command {
  const db = new Command('db').summary('Seed, import into and inspect the register').description(
    'Work on the register database directly: PostgreSQL (--database-url, DATABASE_URL), the SQLite file given by --db, or the local register.',
  );
  const base = (): DbOptions => ({ factory: f });

  db.command('seed')
    .summary('Replace the register with a generated one')
    .description('Generate a realistic, deterministic register of Swedish companies (same --seed, same register). A register that already holds companies is replaced only with --replace.')
    .addOption(
      new Option('--count <n>', 'Number of companies (default 1200000, the size of the real register)').argParser((v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`Invalid --count: "${v}" is not a positive whole number.`, { flag: '--count' });
        return n;
      }),
    )
    .option('--seed <seed>', 'Seed of the generator (default "bolag")')
    .option('--replace', 'Replace a register that holds companies (all of them go, with no events)')
    .action(async (raw: { count?: number; seed?: string; replace?: boolean }) => {
      const { dbSeedRun } = await import('./db/seed.js');
      return dbSeedRun({ ...base(), count: raw.count, seed: raw.seed, replace: Boolean(raw.replace) });
    });

  db.command('import')
    .summary('Upsert companies from our JSONL/CSV, or from Bolagsverket\'s or SCB\'s bulk file')
    .description(
      'Upsert companies by org_nr and record the company.* and financials.published events the differences imply, in the ' +
        'same transaction; a running server delivers them to webhooks.\n\n' +
        '--source ours (default): JSONL or CSV in the export\'s own shape; a bad line stops the import with its line number ' +
        'and changes nothing.\n' +
        '--source bolagsverket | scb: the weekly bulk file (the .zip, read as a stream, or the .txt inside). Each source ' +
        'updates only the fields it owns; organisations the file no longer lists are marked avregistrerad, never deleted ' +
        '(unless they are more than 5 % of those it listed: then none is, until --mark-all-vanished). ' +
        'Sole traders (personal identity numbers) are left out unless --include-persons. A line that cannot be read is ' +
        'reported with its line number and skipped, unless --strict. A file older than the newest this register took from its ' +
        'source (the date in SCB\'s file name, else the date in the zip) is refused unless --allow-older.',
    )
    .argument('<file>', 'A .jsonl or .csv file (ours), or a bulk .zip/.txt file (bolagsverket, scb)')
    .addOption(new Option('--source <source>', 'Format of the file').choices(['ours', 'bolagsverket', 'scb']).default('ours'))
    .option('--include-persons', 'Also import sole traders registered under personal identity numbers (personal data)')
    .option('--strict', 'Stop at the first line that cannot be read, changing nothing')
    .option('--errors <file>', 'Write every line that could not be read to this file (line, reason, text; tab-separated)')
    .option('--mark-all-vanished', 'Mark every organisation the file no longer lists, even more than 5 % of those it listed')
    .option('--allow-older', 'Import a file older than the newest this register took from the source (rolls the changes since back, with events)')
    .action(async (file: string, raw: { source: 'ours' | 'bolagsverket' | 'scb'; includePersons?: boolean; strict?: boolean; errors?: string; markAllVanished?: boolean; allowOlder?: boolean }) => {
      if (raw.source === 'ours' && (raw.includePersons || raw.errors || raw.markAllVanished || raw.allowOlder)) {
        const flag = raw.errors ? '--errors' : raw.markAllVanished ? '--mark-all-vanished' : raw.allowOlder ? '--allow-older' : '--include-persons';
        throw new UsageError('--include-persons, --errors, --mark-all-vanished and --allow-older apply to --source bolagsverket or scb.', { flag });
      }
      const { dbImportRun } = await import('./db/import.js');
      return dbImportRun({ ...base(), file, source: raw.source, includePersons: raw.includePersons, strict: raw.strict, markAllVanished: raw.markAllVanished, allowOlder: raw.allowOlder, errorsFile: raw.errors });
    });

  db.command('stats')
    .summary('Print counts of the register')
    .description(
      'Print counts of the register (companies, active, with figures, advertising blocked), of the work the ' +
        'servers have yet to do (events_to_fan_out: events not yet turned into deliveries; jobs_waiting: exports ' +
        'and deliveries queued or running) and the database size. A table on a terminal, one JSON object otherwise.',
    )
    .action(async () => {
      const { dbStatsRun } = await import('./db/stats.js');
      return dbStatsRun(base());
    });
  return db;
}
