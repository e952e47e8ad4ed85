// Adds derived parameter flags to a commander command and reads them back as API parameters.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { attributeName, type ParamFlag } from './derive.js';
import { setCompletionValues } from '../completion/values.js';
import { repeatable } from './given-once.js';

export interface AddFlagsOptions {
  /** Help heading for these flags ("Filters:"). */
  group?: string;
  /** Values completion offers for open-ended parameters (county names, category slugs). */
  completions?: Record<string, readonly string[]>;
  /** Mention --no-x in the help of booleans (default true; off where false means nothing). */
  negationNote?: boolean;
}

export function addParamFlags(cmd: Command, flags: readonly ParamFlag[], opts: AddFlagsOptions = {}): Command {
  for (const flag of flags) {
    const description = flag.description.replace(/\.$/, '') + valuesNote(flag);
    if (flag.kind === 'boolean') {
      const note = opts.negationNote === false ? '' : ` (--no-${flag.name} for false)`;
      const positive = new Option(`--${flag.name}`, `${description}${note}`);
      const negative = new Option(`--no-${flag.name}`, `The opposite of --${flag.name}`).hideHelp();
      if (opts.group) positive.helpGroup(opts.group);
      cmd.addOption(positive).addOption(negative);
      // Given twice (`--f-skatt --no-f-skatt`): an error, as for any other flag, where commander
      // kept the last and the search silently lost the first.
      let given = false;
      const once = () => {
        if (given) cmd.error(`error: --${flag.name} or --no-${flag.name} is given twice; give one of them once.`, { exitCode: 2, code: 'commander.invalidArgument' });
        given = true;
      };
      cmd.on(`option:${flag.name}`, once).on(`option:no-${flag.name}`, once);
      continue;
    }
    const option = new Option(`--${flag.name} ${flag.valueName}`, description);
    // Given twice: a list flag gets both, sent as one comma-separated value (the API refuses a
    // repeated parameter); anything else is an error, where commander kept the last value and
    // the search silently lost the first.
    option.argParser(flag.list ? joinRepeated : onlyOnce);
    if (flag.list) repeatable(option);
    if (opts.group) option.helpGroup(opts.group);
    const values = opts.completions?.[flag.param] ?? flag.values;
    if (values) setCompletionValues(option, values);
    cmd.addOption(option);
  }
  return cmd;
}

function joinRepeated(value: string, previous: string | undefined): string {
  return previous === undefined ? value : `${previous},${value}`;
}

function onlyOnce(value: string, previous: string | undefined): string {
  if (previous !== undefined) throw new InvalidArgumentError('It is given twice; give it once.');
  return value;
}

/** The value set of an enum flag, for its help line: all of a short set, the ends of a long one. */
function valuesNote(flag: ParamFlag): string {
  const values = flag.values?.filter((v) => !v.startsWith('-'));
  if (!values || values.length === 0) return '';
  if (values.length <= 10) return `. Values: ${values.join(', ')}`;
  return `. Values: ${values.slice(0, 3).join(', ')}, …, ${values[values.length - 1]}`;
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
