// Several real `bolag serve` processes (the built binary) on one database, as operators run
// replicas: helpers to start and stop them, and to read what they print.
import { execa, type ResultPromise } from 'execa';
import { join } from 'node:path';
import { cleanEnv } from '../cli/helpers.js';
import { ROOT } from '../exports/built.js';

/** BOLAG_MP_BIN runs another build (e.g. an older commit's, to reproduce a fault). */
export const BIN = process.env.BOLAG_MP_BIN ?? join(ROOT, 'bin', 'bolag.js');

export interface Replica {
  url: string;
  /** The local account's key, when this process created the register (printed just after it listens). */
  key(): string | undefined;
  child: ResultPromise;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `bolag serve` on a free port with these flags; resolves once it listens. One process
 * each (`--processes 1`; the default is one per core), so that a replica is the process the test
 * holds, kills and finds as a lease holder.
 */
export async function startReplica(args: readonly string[], env: Record<string, string> = {}): Promise<Replica> {
  const child = execa('node', [BIN, 'serve', '--port', '0', '--processes', '1', ...args], {
    reject: false,
    extendEnv: false,
    env: cleanEnv({ BOLAG_HOME: env.BOLAG_HOME ?? join(ROOT, 'node_modules/.cache/bolag-mp-home'), ...env }),
    buffer: false,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 120 s:\n${err}`)), 120_000);
    const check = () => {
      const m = /listening on (\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stderr!.on('data', check);
    void child.then(() => reject(new Error(`serve exited:\n${err}`)));
  });
  return {
    url,
    key: () => /^(bk_\S+)$/m.exec(out)?.[1],
    child,
    stderr: () => err,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return;
      child.kill(signal);
      await child;
    },
  };
}

/** Runs the binary to completion (db import, admin keys, …). */
export async function bolagRun(args: readonly string[], env: Record<string, string> = {}) {
  return execa('node', [BIN, ...args], { reject: false, extendEnv: false, env: cleanEnv({ BOLAG_HOME: join(ROOT, 'node_modules/.cache/bolag-mp-home'), ...env }) });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
