// Values that shell completion offers for an option (enum flags: format, sort, legal form,
// status, county names, category slugs, …). Attached to the commander Option, read by the
// completion generators; commander's own .choices() are offered too.
import type { Option } from 'commander';

const VALUES = new WeakMap<Option, readonly string[]>();

export function setCompletionValues(option: Option, values: readonly string[]): Option {
  VALUES.set(option, values);
  return option;
}

export function completionValues(option: Option): readonly string[] | undefined {
  return VALUES.get(option) ?? option.argChoices;
}
