// The free text typed as words after a command (`bolag search bygg stockholm`,
// `bolag export create snickeri --county 14`): one query, as if it were quoted.
import type { Command } from 'commander';
import { quoted } from '../../core/text.js';
import { UsageError } from '../errors/index.js';
import { attributeName, type ParamFlag } from './derive.js';

/** The words as the `q` parameter (none: `params` as it was). */
export function addQueryWords(params: Record<string, unknown>, words: readonly string[], flags: readonly ParamFlag[], self: Command): void {
  refuseBooleanValue(words, flags, self);
  if (words.length === 0) return;
  // export create also has --q (from before it took words): one of the two would be lost.
  if (params.q !== undefined) throw new UsageError(`Give the query once, as words or as --q, not both (${quoted(words.join(' '))} and --q ${quoted(String(params.q))}).`, { flag: '--q' });
  params.q = words.join(' ');
}

/**
 * `--f-skatt false` reads as --f-skatt and the query "false": true, and a search for the word.
 * A boolean flag takes no value, so with one given, a query word true or false is refused.
 */
function refuseBooleanValue(words: readonly string[], flags: readonly ParamFlag[], self: Command): void {
  const word = words.find((w) => /^(true|false)$/i.test(w));
  if (word === undefined) return;
  const given = flags.find((f) => f.kind === 'boolean' && self.getOptionValueSource(attributeName(f.name)) === 'cli');
  if (!given) return;
  throw new UsageError(`--${given.name} takes no value ("${word}" would be searched for); write --${given.name} for true and --no-${given.name} for false.`, {
    flag: `--${given.name}`,
  });
}
