// Every top-level command, with a lazy loader: `bolag --help` lists them from this table
// without importing any, and `bolag <name> …` imports only the one it runs.
//
// To add a command, write src/cli/commands/<name>.ts exporting
// `build<Name>Command(factory: Factory): Command` and add one line below (see src/cli/README.md).
import type { Command } from 'commander';
import type { Factory } from '../factory.js';

export type CommandBuilder = (factory: Factory) => Command;

export interface CommandEntry {
  name: string;
  /** One line for `bolag --help`. */
  summary: string;
  aliases?: readonly string[];
  load(): Promise<CommandBuilder>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'search', summary: 'Search companies', load: async () => (await import('./search.js')).buildSearchCommand },
  { name: 'export', summary: 'Create, wait for and download exports', load: async () => (await import('./export.js')).buildExportCommand },
  { name: 'company', summary: 'Show one company', load: async () => (await import('./company.js')).buildCompanyCommand },
  { name: 'login', summary: 'Save a base URL and API key in a profile', load: async () => (await import('./login.js')).buildLoginCommand },
  { name: 'config', summary: 'Read and change profiles', load: async () => (await import('./config.js')).buildConfigCommand },
  { name: 'webhooks', summary: 'Manage webhooks: create, list, test, rotate secrets, see deliveries', load: async () => (await import('./webhooks.js')).buildWebhooksCommand },
  { name: 'listen', summary: 'Receive, verify and print webhook deliveries locally', load: async () => (await import('./listen.js')).buildListenCommand },
  { name: 'verify', summary: 'Check the signature of a saved webhook delivery', load: async () => (await import('./verify.js')).buildVerifyCommand },
  { name: 'serve', summary: 'Run the Company Data Service (also: bolag --serve)', load: async () => (await import('./serve.js')).buildServeCommand },
  { name: 'db', summary: 'Seed, import into and inspect the register', load: async () => (await import('./db.js')).buildDbCommand },
  { name: 'admin', summary: 'Operator tasks: API keys', load: async () => (await import('./admin.js')).buildAdminCommand },
  { name: 'completion', summary: 'Print the shell completion script', load: async () => (await import('./completion.js')).buildCompletionCommand },
];

export function findCommand(name: string | undefined): CommandEntry | undefined {
  if (name === undefined) return undefined;
  return COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
}
