// What shell completion knows, read off the commander tree: commands, their options (and
// whether each takes a value, and which values), positional choices. Every shell's script is
// generated from this one model.
import type { Command, Option } from 'commander';
import { completionCommand, completionValues } from './values.js';

export interface OptionSpec {
  /** `--format`. */
  long: string;
  /** `-h`. */
  short?: string;
  description: string;
  takesValue: boolean;
  /** A file or folder (`<path>`, `<file>`, `<dir>`): completed with names on disk; other values without values listed get none. */
  takesPath: boolean;
  values?: readonly string[];
  /** A bolag command (its words) whose output lines are the values: `config profiles`. */
  valuesFrom?: string;
}

export interface CommandSpec {
  /** Words from the root: [] for bolag itself, ['config', 'get'] for `bolag config get`. */
  path: string[];
  name: string;
  description: string;
  options: OptionSpec[];
  commands: CommandSpec[];
  /** Choices of the first positional argument, if it has any. */
  argValues?: readonly string[];
  /** The first positional argument is a file or folder (`bolag db import <file>`). */
  argIsPath: boolean;
}

const HELP: OptionSpec = { long: '--help', short: '-h', description: 'Show help', takesValue: false, takesPath: false };

function optionSpec(o: Option): OptionSpec | undefined {
  if (!o.long) return undefined;
  return {
    long: o.long,
    short: o.short,
    description: firstLine(o.description),
    takesValue: o.required || o.optional,
    takesPath: /<(path|file|dir)>/.test(o.flags),
    values: completionValues(o),
    valuesFrom: completionCommand(o)?.join(' '),
  };
}

export function commandSpec(cmd: Command, path: string[] = []): CommandSpec {
  const options = cmd.options
    .filter((o) => !(o as Option & { hidden?: boolean }).hidden || o.negate)
    .map(optionSpec)
    .filter((o): o is OptionSpec => o !== undefined);
  return {
    path,
    name: cmd.name(),
    description: firstLine(cmd.summary() || cmd.description()),
    options: [...options, HELP],
    commands: cmd.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden).map((c) => commandSpec(c, [...path, c.name()])),
    argValues: cmd.registeredArguments[0]?.argChoices,
    argIsPath: /^(path|file|dir)$/.test(cmd.registeredArguments[0]?.name() ?? ''),
  };
}

/** Every command in the tree, root first. */
export function flatten(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.commands.flatMap(flatten)];
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').replace(/\s+/g, ' ').trim();
}
