// Small argv rewrites and look-ups done before commander parses anything.

/** Global options that take a value (contract §3); the token after them is not a command. */
export const GLOBAL_VALUE_OPTIONS = new Set(['--base-url', '--api-key', '--profile', '--db', '--database-url']);

/** `bolag --serve …` is `bolag serve …`. Only before the command name, where it cannot be a flag of a command. */
export function rewriteServeAlias(args: readonly string[]): string[] {
  const index = commandIndex(args, ['--serve']);
  if (index === -1 || args[index] !== '--serve') return [...args];
  return ['serve', ...args.slice(0, index), ...args.slice(index + 1)];
}

/**
 * `bolag help nope` is `bolag nope`: commander answered a help for an unknown command with the
 * whole usage on stderr; as a command it gets one line, with a did-you-mean. So is `bolag nope
 * --help`, which printed the root's help and exit 0, as if `nope` were a command.
 */
export function rewriteHelpOfUnknown(args: readonly string[], known: (name: string) => boolean): string[] {
  const i = commandIndex(args);
  if (i !== -1 && args[i] !== 'help' && !known(args[i])) return args.filter((a, k) => k < i || (a !== '--help' && a !== '-h'));
  if (i === -1 || args[i] !== 'help') return [...args];
  const j = commandIndex(args.slice(i + 1));
  if (j === -1 || known(args[i + 1 + j])) return [...args];
  return [...args.slice(0, i), ...args.slice(i + 1)];
}

/** The command a run is for: the first operand (`bolag help search` is for search). */
export function targetCommand(args: readonly string[]): string | undefined {
  const i = commandIndex(args);
  if (i === -1) return undefined;
  if (args[i] !== 'help') return args[i];
  const j = commandIndex(args.slice(i + 1));
  return j === -1 ? undefined : args[i + 1 + j];
}

function commandIndex(args: readonly string[], stopAt: readonly string[] = []): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (stopAt.includes(a)) return i;
    if (a === '--') return i + 1 < args.length ? i + 1 : -1;
    if (GLOBAL_VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return i;
  }
  return -1;
}
