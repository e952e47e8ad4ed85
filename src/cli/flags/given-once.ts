// An option that takes a value is given once: `--format csv --format jsonl` or `--max 1 --max 2`
// is an error, where commander kept the last value and the first was silently lost. Options that
// gather their values (a list filter, --secret, --filter) are marked repeatable and take them all.
import type { Command, Option } from 'commander';

const REPEATABLE = new WeakSet<Option>();

/** Marks an option whose every value is kept (its parser gathers them). */
export function repeatable<T extends Option>(option: T): T {
  REPEATABLE.add(option);
  return option;
}

/** Refuses a second value of each of this command's value-taking options that is not repeatable. */
export function refuseRepeatedValues(cmd: Command): void {
  for (const option of cmd.options) {
    if (REPEATABLE.has(option) || option.variadic || option.negate || (!option.required && !option.optional)) continue;
    let given = false;
    // Not for values from the environment (optionEnv:…), which a flag overrides.
    cmd.on(`option:${option.name()}`, () => {
      if (given) cmd.error(`error: ${option.long} is given twice; give it once.`, { exitCode: 2, code: 'commander.invalidArgument' });
      given = true;
    });
  }
}
