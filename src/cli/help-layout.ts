// Help that reads well at any terminal width. Commander wraps descriptions, but gives up when
// the description column is under 40 characters (long flags in a narrow terminal) and never
// touches text added with addHelpText. Here: flags with their description below them when the
// columns get narrow, and the text after the flags (notes, examples) wrapped to the same width.
// Descriptions themselves are written without hard line breaks; commander wraps them.
import type { AddHelpTextContext, Command, Help } from 'commander';

/** Narrower than this, a description goes below its flag instead of beside it. */
const MIN_DESCRIPTION_COLUMN = 40;
const ITEM_INDENT = 2;
const STACKED_INDENT = 6;
/** Narrower than this, stacked descriptions are indented less, so that long words still fit. */
const NARROW_WIDTH = 50;
const NARROW_STACKED_INDENT = 4;

type FormatItem = (this: Help, term: string, termWidth: number, description: string, helper: Help) => string;

/** For configureHelp(): `formatItem` that stacks term and description when the column is narrow. */
export function narrowFormatItem(original: FormatItem): FormatItem {
  return function formatItem(this: Help, term, termWidth, description, helper) {
    const width = this.helpWidth ?? 80;
    if (!description || width - termWidth - 2 - ITEM_INDENT >= MIN_DESCRIPTION_COLUMN) return original.call(this, term, termWidth, description, helper);
    const indent = ' '.repeat(width < NARROW_WIDTH ? NARROW_STACKED_INDENT : STACKED_INDENT);
    return `${' '.repeat(ITEM_INDENT)}${term}\n${indent}${wrap(description, width - indent.length).replace(/\n/g, `\n${indent}`)}`;
  };
}

type StyleUsage = (this: Help, usage: string) => string;

/** For configureHelp(): `styleUsage` that wraps a usage line wider than the help, under "Usage: ". */
export function wrappedUsage(original: StyleUsage): StyleUsage {
  return function styleUsage(this: Help, usage) {
    const width = (this.helpWidth ?? 80) - 'Usage: '.length;
    const styled = original.call(this, usage);
    if (usage.length <= width) return styled;
    return wrap(styled, width).replace(/\n/g, `\n${' '.repeat('Usage: '.length)}`);
  };
}

/** Greedy word wrap; a word longer than the width stays whole on its own line. */
export function wrap(text: string, width: number): string {
  return text
    .split('\n')
    .map((paragraph) => {
      const lines: string[] = [];
      let line = '';
      for (const word of paragraph.split(/ +/).filter(Boolean)) {
        if (line !== '' && line.length + 1 + word.length > width) {
          lines.push(line);
          line = word;
        } else line = line === '' ? word : `${line} ${word}`;
      }
      lines.push(line);
      return lines.join('\n');
    })
    .join('\n');
}

/**
 * A shell command that fits the width: broken at spaces with " \" continuations, so that it
 * can still be pasted. The first line starts with "  $ ", the others are indented under it.
 */
export function wrapCommand(command: string, width: number): string {
  const first = '  $ ';
  const next = '      ';
  // Words as the shell sees them: a quoted part is never split.
  const tokens = command.match(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g) ?? [];
  // A flag stays on the line of its value: as a pair, each a shell word.
  const words: string[][] = [];
  for (const t of tokens) {
    const last = words.at(-1);
    if (last?.length === 1 && /^--?[\w-]+$/.test(last[0]) && !t.startsWith('-')) last.push(t);
    else words.push([t]);
  }
  const lines: string[] = [];
  let line = first;
  const add = (word: string, breakBefore = false) => {
    const start = line === first || line === next;
    if (!start && (breakBefore || line.length + 1 + word.length + 2 > width)) {
      lines.push(`${line} \\`);
      line = next + word;
    } else line = start ? line + word : `${line} ${word}`;
  };
  for (const word of words) {
    const joined = word.join(' ');
    // A flag and its value too wide for a line of their own go on two lines of their own (a
    // quoted word is never broken: a continuation inside quotes would change the argument).
    if (word.length === 2 && next.length + joined.length + 2 > width) {
      add(word[0], true);
      add(word[1], true);
    } else add(joined);
  }
  lines.push(line);
  return lines.join('\n');
}

/** The width the help of this command is being written at (stdout, or stderr for errors). */
function helpWidth(command: Command, error: boolean): number {
  const output = command.configureOutput() as { getOutHelpWidth?: () => number; getErrHelpWidth?: () => number };
  return (error ? output.getErrHelpWidth?.() : output.getOutHelpWidth?.()) ?? 80;
}

export interface HelpNotes {
  /** Paragraphs of prose, each one line in the source; wrapped to the width. */
  notes?: readonly string[];
  /** Example command lines (without "$ "), wrapped with " \" continuations. */
  examples?: readonly string[];
  /** The heading above the examples. */
  heading?: string;
}

/** For `.addHelpText('after', helpNotes({…}))`: notes and examples laid out for the help's width. */
export function helpNotes({ notes = [], examples = [], heading = 'Examples:' }: HelpNotes): (context: AddHelpTextContext) => string {
  return ({ error, command }) => {
    const width = helpWidth(command, error);
    const parts = notes.map((n) => wrap(n, width));
    if (examples.length > 0) parts.push([wrap(heading, width), ...examples.map((e) => wrapCommand(e, width))].join('\n'));
    return parts.length > 0 ? `\n${parts.join('\n\n')}` : '';
  };
}
