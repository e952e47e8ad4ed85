// The CLI side of the local register: starts the in-process server over the embedded database
// (src/local/local-register.ts creates it on first use), says so once on stderr, and shows
// progress on a terminal while the register is being created.
import type { StoreTarget } from '../store-target.js';
import type { IOStreams } from '../io.js';
import { formatNumber } from '../output/swedish.js';
import { SEED_WAIT } from '../commands/db/seed-progress.js';

export interface LocalConnection {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

export async function startLocal(
  io: IOStreams,
  opts: { quiet?: boolean; env?: NodeJS.ProcessEnv; target: StoreTarget },
): Promise<LocalConnection> {
  if (!opts.quiet) io.stderr.write(`Using the local register (${opts.target.label})\n`);
  const progress = opts.quiet ? undefined : createProgress(io);
  const { startLocalRegister } = await import('../../local/local-register.js');
  const restoreInterrupt = interruptAtOnce();
  try {
    const register = await startLocalRegister({ onProgress: progress?.update, onWait: opts.quiet ? undefined : () => io.stderr.write(WAITING), env: opts.env, location: opts.target.location, keyFile: opts.target.localKeyFile });
    progress?.done();
    return register;
  } catch (error) {
    progress?.fail();
    throw error;
  } finally {
    restoreInterrupt();
  }
}

/**
 * While the register is first created, the main thread sits in SQLite's index builds for seconds
 * at a time, and a Ctrl-C left to the CLI's listener waited for them (13 s). Its creation may be
 * cut anywhere (the next run creates it again and removes what this one left), so until the
 * register is up Ctrl-C has its default effect: the process ends at once, and the shell says 130.
 */
function interruptAtOnce(): () => void {
  const listeners = process.rawListeners('SIGINT') as ((...args: unknown[]) => void)[];
  process.removeAllListeners('SIGINT');
  return () => {
    for (const listener of listeners) process.on('SIGINT', listener);
  };
}

const WAITING = `${SEED_WAIT}\n`;

interface Progress {
  update(done: number, total: number): void;
  done(): void;
  fail(): void;
}

function createProgress(io: IOStreams): Progress {
  let started = false;
  let lastDraw = 0;
  const label = (done: number, total: number) => {
    const pct = total > 0 ? Math.floor((done / total) * 100) : 0;
    const width = 24;
    const filled = Math.round((pct / 100) * width);
    return `Creating the local register [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${pct} % (${formatNumber(done)} of ${formatNumber(total)} companies)`;
  };
  return {
    update(done, total) {
      if (!started) {
        started = true;
        if (!io.stderrIsTTY) io.stderr.write(`Creating the local register (${formatNumber(total)} companies); this happens once…\n`);
      }
      const now = Date.now();
      if (!io.stderrIsTTY || (now - lastDraw < 100 && done < total)) return;
      lastDraw = now;
      io.stderr.write(`\r\u001b[2K${label(done, total)}`);
    },
    done() {
      if (started && io.stderrIsTTY) io.stderr.write(`\r\u001b[2KCreated the local register.\n`);
    },
    fail() {
      if (started && io.stderrIsTTY) io.stderr.write('\n');
    },
  };
}
