// The root command: global options (contract §3) and the commands of the registry, of which
// only the one being run is loaded; the rest are listed from the registry's summaries.
import { type Argument, Command, Help, Option } from 'commander';
import { COMMANDS, findCommand, type CommandEntry } from './commands/index.js';
import type { Factory } from './factory.js';
import type { IOStreams } from './io.js';
import { helpNotes, narrowFormatItem, wrappedUsage } from './help-layout.js';
import { refuseRepeatedValues } from './flags/given-once.js';
import { closestNames } from '../core/closest.js';
import { setCompletionCommand } from './completion/values.js';

const GLOBAL = 'Global options:';

export function buildRootProgram(io: IOStreams, version: string): Command {
  const program = new Command('bolag')
    .description('Search, export and watch the Swedish company register from a terminal, and serve it.')
    .version(version, '-V, --version', 'Print the version')
    .helpOption('-h, --help', 'Show help')
    .addOption(new Option('--base-url <url>', 'Service address (https://api.example.se); /api/public/v1 is added unless given (env BOLAG_BASE_URL)').helpGroup(GLOBAL))
    .addOption(new Option('--api-key <key>', 'API key (env BOLAG_API_KEY)').helpGroup(GLOBAL))
    .addOption(setCompletionCommand(new Option('--profile <name>', 'Profile of bolag login / bolag config (env BOLAG_PROFILE)').helpGroup(GLOBAL), ['config', 'profiles']))
    .addOption(new Option('--local', 'Use the local register even when a service is configured').helpGroup(GLOBAL))
    .addOption(new Option('--db <path>', 'Path of the embedded database (serve, db, admin, local mode)').helpGroup(GLOBAL))
    .addOption(new Option('--database-url <url>', 'PostgreSQL database instead of --db: postgres://user@host:5432/db (env DATABASE_URL)').helpGroup(GLOBAL))
    .addOption(new Option('--verbose', 'Log every request to stderr').helpGroup(GLOBAL))
    .addOption(new Option('--quiet', 'Print no notices, only data and errors').helpGroup(GLOBAL))
    .addOption(new Option('--no-color', 'No colour (also NO_COLOR)').helpGroup(GLOBAL))
    .addHelpText(
      'after',
      helpNotes({
        notes: [
          'With no service configured, commands use the local register (an in-process server over the embedded database under BOLAG_HOME). Precedence: flag > environment > profile > local register.',
          'Run "bolag <command> --help" for the flags of a command.',
        ],
      }),
    )
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      // One line, as every error: commander puts its "(Did you mean …?)" on a line of its own.
      outputError: (s, write) => write(s.replace(/\n(?=\(Did you mean)/, ' ')),
      getOutHelpWidth: () => io.helpWidth('out'),
      getErrHelpWidth: () => io.helpWidth('err'),
    })
    .configureHelp({ showGlobalOptions: true, formatItem: narrowFormatItem(Help.prototype.formatItem), styleUsage: wrappedUsage(Help.prototype.styleUsage) });
  refuseRepeatedValues(program);
  return program;
}

/** Adds every registry command: the target fully built, the others as listing-only stubs. */
export async function addCommands(program: Command, factory: Factory, target: string | undefined, all = false): Promise<void> {
  const wanted = findCommand(target);
  for (const entry of COMMANDS) {
    const cmd = all || entry === wanted ? (await entry.load())(factory) : stub(entry);
    if (entry.aliases && cmd.aliases().length === 0) cmd.aliases([...entry.aliases]);
    if (!cmd.summary()) cmd.summary(entry.summary);
    program.addCommand(cmd);
    inherit(cmd, program);
  }
}

function stub(entry: CommandEntry): Command {
  return new Command(entry.name).summary(entry.summary).allowUnknownOption().allowExcessArguments().helpOption(false);
}

/** addCommand() does not copy the parent's settings (exitOverride, output): copy them down the tree. */
function inherit(cmd: Command, parent: Command): void {
  cmd.copyInheritedSettings(parent);
  // A command's own help shows its description; one given only a summary (for its parent's
  // list) had none, and `webhooks create --help` began with its options.
  if (!cmd.description() && cmd.summary()) cmd.description(`${cmd.summary()}.`);
  foldChoiceCase(cmd);
  refuseRepeatedValues(cmd);
  explainSwitchValue(cmd);
  for (const sub of cmd.commands) inherit(sub, cmd);
}

/**
 * `--f-skatt=false` is a switch given a value: commander calls it an unknown option, which sends
 * the user looking for a flag that is there. Say how a switch is written instead.
 */
function explainSwitchValue(cmd: Command): void {
  // unknownOption is commander's own (not in its types); test/cli/search.e2e.test.ts fails if it goes.
  const hooked = cmd as unknown as { unknownOption(flag: string): void };
  const unknown = hooked.unknownOption.bind(cmd);
  hooked.unknownOption = (flag: string): void => {
    const name = /^(--[^=]+)=/.exec(flag)?.[1];
    const positive = name?.replace(/^--no-/, '--');
    if (name !== undefined && positive !== undefined && switchNamed(cmd, name)) {
      const negative = `--no-${positive.slice(2)}`;
      const forms = switchNamed(cmd, positive) && switchNamed(cmd, negative) ? `write ${positive} for true and ${negative} for false` : `write ${name} alone`;
      cmd.error(`error: ${name} is a switch and takes no value; ${forms}.`, { code: 'commander.unknownOption' });
    }
    // Commander suggests only options shown in help, and every --no-x is hidden: `--no-fskatt`
    // got "Did you mean --f-skatt?", the opposite of what was typed.
    const negative = flag.startsWith('--no') ? closestNames(flag, hiddenNegatives(cmd), 1)[0] : undefined;
    if (negative !== undefined) cmd.error(`error: unknown option '${flag}' (Did you mean ${negative}?)`, { code: 'commander.unknownOption' });
    unknown(flag);
  };
}

/** The long names of the hidden --no-x options of this command and its ancestors. */
function hiddenNegatives(cmd: Command): string[] {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) for (const o of c.options) if (o.negate && o.hidden && o.long) names.push(o.long);
  return names;
}

/** The switch (an option that takes no value) of this command or an ancestor with that long name. */
function switchNamed(cmd: Command, long: string): Option | undefined {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const option = c.options.find((o) => o.long === long && !o.required && !o.optional);
    if (option) return option;
  }
  return undefined;
}

/**
 * Every choice we offer is lower case; what was typed is compared lower-cased, so `--format CSV`
 * is `--format csv` (people type formats as they say them) and the value stored is the choice's.
 */
function foldChoiceCase(cmd: Command): void {
  const choosers: Array<Option | Argument> = [...cmd.options, ...cmd.registeredArguments];
  for (const chooser of choosers) {
    const parse = chooser.parseArg;
    const choices = chooser.argChoices;
    if (!parse || !choices || choices.some((c) => c !== c.toLowerCase())) continue;
    chooser.parseArg = <T>(value: string, previous: T): T => parse(value.toLowerCase(), previous) as T;
  }
}
