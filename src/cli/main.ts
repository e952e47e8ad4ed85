// The entry point of the binary: builds the program, runs one command, maps whatever it threw
// to an exit code in one place, and is the only code that exits.
import { argv as processArgv } from 'node:process';
import { addCommands, buildRootProgram } from './program.js';
import { rewriteHelpOfUnknown, rewriteServeAlias, targetCommand } from './argv.js';
import { findCommand } from './commands/index.js';
import { createFactory, type GlobalOptions } from './factory.js';
import { systemIO } from './io.js';
import { packageVersion } from './version.js';

// exit-codes.ts and report-error.ts (with every error class) are loaded only on the way out
// of a failed run: `bolag --help` does not pay for them.
const EXIT = { ok: 0, interrupted: 130 } as const;
const DONE = new Set(['commander.helpDisplayed', 'commander.version']);

/** Seconds a command gets to stop by itself after Ctrl-C before main exits anyway. */
const INTERRUPT_GRACE_MS = 3000;

export async function main(argv: readonly string[] = processArgv): Promise<never> {
  const io = systemIO();
  const args = rewriteHelpOfUnknown(rewriteServeAlias(argv.slice(2)), (name) => findCommand(name) !== undefined);
  const program = buildRootProgram(io, packageVersion());
  const globals = () => program.opts() as GlobalOptions;
  const interrupt = new AbortController();
  const finishing = new Set<Promise<unknown>>();
  const onFinishing = (work: Promise<unknown>) => {
    finishing.add(work);
    void work.catch(() => undefined).finally(() => finishing.delete(work));
  };
  const factory = createFactory({ io, globals, interrupt: interrupt.signal, onFinishing });

  // A reader that went away (`| head`) is not a failure. The command ends at its next write
  // (PipeClosedError, exit 0) through its own cleanup: exiting here at once left a
  // `listen --register-url … | head -1` webhook registered. One that writes nothing more is
  // ended after the grace, what it is finishing and its cleanup first.
  let readerGone = false;
  io.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' || readerGone) return;
    readerGone = true;
    setTimeout(async () => {
      await Promise.allSettled(finishing);
      await factory.dispose();
      process.exit(EXIT.ok);
    }, INTERRUPT_GRACE_MS).unref();
  });
  let reraised = 0;
  process.on('SIGINT', () => {
    if (interrupt.signal.aborted) {
      // A second Ctrl-C ends at once; the first raised again by a library does not (it ended an
      // interrupted `export create --wait` before it could say which export goes on).
      if (reraised > 0) reraised--;
      else process.exit(EXIT.interrupted);
      return;
    }
    // when-exit (under conf, loaded with a profile) takes the signal with `once` and raises it
    // again at once, before any second Ctrl-C can come: as many signals are not a person's.
    reraised = process.rawListeners('SIGINT').filter((l) => 'listener' in l).length;
    interrupt.abort(new Error('interrupted'));
    setTimeout(async () => {
      if (finishing.size > 0) {
        io.stderr.write('Finishing what was already taken (Ctrl-C again stops at once)…\n');
        await Promise.allSettled(finishing);
      }
      io.stderr.write('Interrupted.\n');
      process.exit(EXIT.interrupted);
    }, INTERRUPT_GRACE_MS).unref();
  });

  let code: number = EXIT.ok;
  try {
    await addCommands(program, factory, targetCommand(args));
    program.hook('preAction', () => {
      if (globals().color === false) io.color = false;
    });
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (DONE.has((error as { code?: string } | null)?.code ?? '')) code = EXIT.ok;
    else {
      // After Ctrl-C, a request it aborted fails with the abort's reason: that is the interrupt.
      const { CancelError, CliError } = await import('./errors/index.js');
      const interrupted = interrupt.signal.aborted && !(error instanceof CliError);
      code = (await import('./report-error.js')).reportError(interrupted ? new CancelError('Interrupted.') : error, io.stderr, Boolean(globals().verbose));
    }
  } finally {
    await factory.dispose();
  }
  process.exit(code);
}
