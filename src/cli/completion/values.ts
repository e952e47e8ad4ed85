// Values that shell completion offers for an option (enum flags: format, sort, legal form,
// status, county names, category slugs, …). Attached to the commander Option, read by the
// completion generators; commander's own .choices() are offered too, and the lines a bolag command
// prints where the values are the user's own (profiles).
import type { Option } from 'commander';

const VALUES = new WeakMap<Option, readonly string[]>();

export function setCompletionValues(option: Option, values: readonly string[]): Option {
  VALUES.set(option, values);
  return option;
}

export function completionValues(option: Option): readonly string[] | undefined {
  return VALUES.get(option) ?? option.argChoices;
}

const COMMANDS = new WeakMap<Option, readonly string[]>();

/**
 * Values known only on the user's machine (profile names): the completion script runs this
 * bolag command (its words) and offers the lines it prints.
 */
export function setCompletionCommand(option: Option, words: readonly string[]): Option {
  COMMANDS.set(option, words);
  return option;
}

export function completionCommand(option: Option): readonly string[] | undefined {
  return COMMANDS.get(option);
}
