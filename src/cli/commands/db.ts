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
    .description('Generate a realistic, deterministic register of Swedish companies (same --seed, same register).')
    .addOption(
      new Option('--count <n>', 'Number of companies (default 1200000, the size of the real register)').argParser((v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`Invalid --count: "${v}" is not a positive whole number.`, { flag: '--count' });
        return n;
      }),
    )
    .option('--seed <seed>', 'Seed of the generator (default "bolag")')
    .action(async (raw: { count?: number; seed?: string }) => {
      const { dbSeedRun } = await import('./db/seed.js');
      return dbSeedRun({ ...base(), count: raw.count, seed: raw.seed });
    });

  db.command('import')
    .summary('Upsert companies from a JSONL or CSV file')
    .description(
      'Upsert companies by org_nr from JSONL or CSV in the export\'s own shape. Records the company.* and financials.published ' +
        'events the differences imply, in the same transaction; a running server delivers them to webhooks. ' +
        'A bad line stops the import with its line number and changes nothing.',
    )
    .argument('<file>', 'A .jsonl or .csv file')
    .action(async (file: string) => {
      const { dbImportRun } = await import('./db/import.js');
      return dbImportRun({ ...base(), file });
    });

  db.command('stats')
    .summary('Print counts of the register')
    .action(async () => {
      const { dbStatsRun } = await import('./db/stats.js');
      return dbStatsRun(base());
    });
  return db;
}
