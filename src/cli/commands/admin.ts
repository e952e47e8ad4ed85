// `bolag admin keys create|list|revoke`: API keys, directly on the database (an operator's tool).
import { Command, Option } from 'commander';
import { PLANS, SCOPES, type Plan, type Scope } from '../../core/values.js';
import type { Factory } from '../factory.js';
import { UsageError } from '../errors/index.js';
import { helpNotes } from '../help-layout.js';

function parseScopes(value: string): Scope[] {
  const scopes = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (scopes.length === 1 && scopes[0] === 'all') return [...SCOPES];
  for (const s of scopes) {
    if (!(SCOPES as readonly string[]).includes(s)) {
      throw new UsageError(`Invalid --scopes: unknown scope "${s}"; expected ${SCOPES.join(', ')} or all.`, { flag: '--scopes' });
    }
  }
  if (scopes.length === 0) throw new UsageError('Invalid --scopes: give at least one scope.', { flag: '--scopes' });
  return [...new Set(scopes)] as Scope[]; // a scope named twice is kept once
}

/** An account name someone can type again: not empty, no control characters (an account "" was made). */
function accountName(value: string): string {
  const name = value.trim();
  if (name === '' || /[\p{Cc}]/u.test(name)) throw new UsageError('Invalid --account: give the account a name, e.g. --account acme.', { flag: '--account' });
  return name;
}

export function buildAdminCommand(f: Factory): Command {
  const admin = new Command('admin').summary('Operator tasks: API keys').description('Operator tasks on the service database (--database-url, --db, DATABASE_URL or the local register).');
  const keys = admin.command('keys').summary('Create, list and revoke API keys');

  keys
    .command('create')
    .summary('Create an API key (printed once, on stdout)')
    .addOption(new Option('--scopes <scopes>', `Comma-separated: ${SCOPES.join(', ')}, or all`).makeOptionMandatory().argParser(parseScopes))
    .addOption(new Option('--plan <plan>', 'Plan of a new account').choices([...PLANS]).default('free'))
    .addOption(new Option('--account <name>', 'Account name (created when new)').default('default').argParser(accountName))
    .addHelpText('after', helpNotes({ examples: ['bolag admin keys create --scopes companies:read', 'bolag admin keys create --scopes all --plan pro --account acme'] }))
    .action(async (raw: { scopes: Scope[]; plan: Plan; account: string }, cmd: Command) => {
      const { adminKeysCreateRun } = await import('./admin/keys.js');
      const planGiven = cmd.getOptionValueSource('plan') === 'cli';
      return adminKeysCreateRun({ factory: f, scopes: raw.scopes, plan: raw.plan, planGiven, account: raw.account });
    });

  keys
    .command('list')
    .summary('List keys (prefixes only; keys are stored hashed)')
    .option('--account <name>', 'Only this account')
    .action(async (raw: { account?: string }) => {
      const { adminKeysListRun } = await import('./admin/keys.js');
      return adminKeysListRun({ factory: f, account: raw.account });
    });

  keys
    .command('revoke')
    .summary('Revoke a key by its id, prefix or the key itself')
    .argument('<key>', 'Key id (key_…), prefix (bk_…) or the whole key')
    .action(async (key: string) => {
      const { adminKeysRevokeRun } = await import('./admin/keys.js');
      return adminKeysRevokeRun({ factory: f, key });
    });
  return admin;
}
