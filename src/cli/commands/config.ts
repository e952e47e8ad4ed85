// `bolag config get|set|unset|list|profiles`: the settings of a profile (base_url, api_key) and which
// profile is the default. Works on --profile / BOLAG_PROFILE, else the default profile.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Factory } from '../factory.js';
import { CONFIG_KEYS } from '../config/keys.js';
import type { ConfigOptions } from './config/options.js';

async function run(opts: ConfigOptions, runF?: (opts: ConfigOptions) => Promise<void>): Promise<void> {
  if (runF) return runF(opts);
  const { configRun } = await import('./config/run.js');
  return configRun(opts);
}

export function buildConfigCommand(f: Factory, runF?: (opts: ConfigOptions) => Promise<void>): Command {
  const cmd = new Command('config')
    .summary('Read and change profiles')
    .description(`Read and change the settings of a profile (${CONFIG_KEYS.join(', ')}). --profile picks the profile, or the key names it as config list prints it (local.base_url).`);
  const key = (c: Command) => {
    const arg = c.registeredArguments[0];
    if (arg) {
      // Completion offers the keys; the check also takes a key as `config list` prints it,
      // with its profile (`local.base_url`).
      arg.choices(CONFIG_KEYS);
      arg.argParser((value: string) => {
        const bare = value.replace(/^[^.]+\./, '');
        if (!(CONFIG_KEYS as readonly string[]).includes(bare)) {
          throw new InvalidArgumentError(`Allowed choices are ${CONFIG_KEYS.join(', ')}, or <profile>.<key> (local.base_url).`);
        }
        return value;
      });
    }
    return c;
  };
  cmd.addCommand(
    key(new Command('get').description('Print one setting').argument('<key>', `${CONFIG_KEYS.join(' | ')}, or <profile>.<key> (local.base_url)`)).action(async (k: string) =>
      run({ factory: f, action: 'get', key: k }, runF),
    ),
  );
  cmd.addCommand(
    key(new Command('set').description('Change one setting').argument('<key>', `${CONFIG_KEYS.join(' | ')}, or <profile>.<key> (local.base_url)`).argument('<value>')).action(
      async (k: string, v: string) => run({ factory: f, action: 'set', key: k, value: v }, runF),
    ),
  );
  cmd.addCommand(
    key(new Command('unset').description('Remove one setting').argument('<key>', `${CONFIG_KEYS.join(' | ')}, or <profile>.<key> (local.base_url)`)).action(async (k: string) =>
      run({ factory: f, action: 'unset', key: k }, runF),
    ),
  );
  cmd.addCommand(
    new Command('list')
      .description('Print every profile and setting (keys masked)')
      .addOption(new Option('--show-secrets', 'Print API keys in full'))
      .action(async (o: { showSecrets?: boolean }) => run({ factory: f, action: 'list', showSecrets: o.showSecrets }, runF)),
  );
  cmd.addCommand(
    new Command('profiles')
      .description('Print the name of every profile, one a line (shell completion of --profile reads it)')
      .action(async () => run({ factory: f, action: 'profiles' }, runF)),
  );
  return cmd;
}
