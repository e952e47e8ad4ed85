// Adds derived parameter flags to a commander command and reads them back as API parameters.
import { Option, type Command } from 'commander';
import { attributeName, type ParamFlag } from './derive.js';
import { setCompletionValues } from '../completion/values.js';

export function addParamFlags(cmd: Command, flags: readonly ParamFlag[], opts: { group?: string; completions?: Record<string, readonly string[]> } = {}): Command {
  for (const flag of flags) {
    const description = flag.description.replace(/\.$/, '');
    if (flag.kind === 'boolean') {
      const positive = new Option(`--${flag.name}`, `${description} (--no-${flag.name} for false)`);
      const negative = new Option(`--no-${flag.name}`).hideHelp();
      if (opts.group) positive.helpGroup(opts.group);
      cmd.addOption(positive).addOption(negative);
      continue;
    }
    const option = new Option(`--${flag.name} ${flag.valueName}`, description);
    if (opts.group) option.helpGroup(opts.group);
    const values = opts.completions?.[flag.param] ?? flag.values;
    if (values) setCompletionValues(option, values);
    cmd.addOption(option);
  }
  return cmd;
}

/**
 * The API parameters the user set, snake_case, as strings and booleans: exactly what goes in
 * the query string (the server validates the same text the CLI validated).
 */
export function readParamFlags(options: Record<string, unknown>, flags: readonly ParamFlag[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const flag of flags) {
    const value = options[attributeName(flag.name)];
    if (value === undefined) continue;
    out[flag.param] = typeof value === 'boolean' ? value : String(value);
  }
  return out;
}
