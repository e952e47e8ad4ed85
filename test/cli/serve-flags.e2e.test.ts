// `bolag serve` flags and signals, through the real binary. Found by a CLI review (2026-11-27):
// - --export-part-rows 0 (or '') was taken, and the first export then wrote parts without end
//   until the disk was full (57,000 files, 4.2 GB in 40 s for 300 rows);
// - --port 70000 ended with exit 1 and Node's internal message;
// - on a first start (which saves the new key as the profile "local") a SIGTERM killed the
//   process at once (exit 143) instead of the graceful close: the config library's exit hook
//   re-raises the signal, and serve's own listener was a `once`, gone after one call.
import { execa } from 'execa';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, binaryScratch, cleanEnv } from '../cli/helpers.js';

const scratch = binaryScratch('bolag-review-serve-');

function env(name: string) {
  return cleanEnv({ BOLAG_HOME: join(scratch(), name, 'home'), XDG_CONFIG_HOME: join(scratch(), name, 'config') });
}

/** Runs serve with a bad flag; if it starts anyway, stops it and reports that. */
async function serveExit(name: string, flags: string[]): Promise<{ exitCode?: number; stderr: string }> {
  const child = execa('node', [BIN, 'serve', '--processes', '1', '--seed-count', '100', '--db', join(scratch(), `${name}.db`), ...flags], {
    reject: false,
    extendEnv: false,
    env: env(name),
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
    if (/listening on/.test(stderr)) child.kill('SIGKILL');
  });
  const r = await child;
  return { exitCode: r.exitCode, stderr };
}

describe('bolag serve refuses values it cannot use (exit 2, one line)', () => {
  it('--export-part-rows 0', async () => {
    const r = await serveExit('parts0', ['--port', '0', '--export-part-rows', '0']);
    expect(r.stderr).not.toMatch(/listening on/);
    expect(r.exitCode).toBe(2);
  }, 60_000);

  it('--port 70000', async () => {
    const r = await serveExit('port70000', ['--port', '70000']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: Invalid --port: 70000; it must be from 0 to 65535/)]);
  }, 60_000);

  it('--host that is no address of this machine, before anything is created', async () => {
    const r = await serveExit('no-such-host', ['--port', '0', '--host', '999.1.1.1']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(['error: --host 999.1.1.1 is no address of this machine (ENOTFOUND); give one it has, e.g. 127.0.0.1 or 0.0.0.0 for all.']);
    expect(existsSync(join(scratch(), 'no-such-host.db'))).toBe(false);
  }, 60_000);

  it("'' where a number goes, and --processes 0", async () => {
    for (const [name, flags] of [['empty-parts', ['--export-part-rows', '']], ['empty-port', ['--port', '']], ['processes0', ['--port', '0', '--processes', '0']], ['empty-schedule', ['--port', '0', '--webhook-retry-schedule', '']]] as const) {
      const r = await serveExit(name, [...flags]);
      expect(r.stderr, name).not.toMatch(/listening on/);
      expect(r.exitCode, name).toBe(2);
    }
    // --seed-count 0 made no register and said "1 companies"; every later start generated one.
    const db = join(scratch(), 'seed0.db');
    const zero = await execa('node', [BIN, 'serve', '--processes', '1', '--port', '0', '--seed-count', '0', '--db', db], { reject: false, extendEnv: false, env: env('seed0') });
    expect([zero.exitCode, zero.stderr.trim()]).toEqual([2, 'error: Invalid --seed-count: 0; it must be at least 1.']);
    expect(existsSync(db)).toBe(false);
  }, 60_000);
});

/** Whether port 80 needs privileges here (Linux's default; a container may lower the start). */
function privilegedPortsGuarded(): boolean {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8')) > 80;
  } catch {
    return false;
  }
}

describe.runIf(privilegedPortsGuarded())('a port this user may not bind', () => {
  it('is said before a first start creates the register and its key (found by a review, 2026-11-29: the key was lost)', async () => {
    const dir = join(scratch(), 'privileged');
    mkdirSync(dir, { recursive: true, mode: 0o777 });
    chmodSync(dir, 0o777);
    const db = join(dir, 'register.db');
    const args = [BIN, 'serve', '--processes', '1', '--seed-count', '100', '--port', '80', '--db', db];
    // As root, run it as nobody, who may not bind port 80.
    const asRoot = process.getuid?.() === 0;
    const r = await execa(asRoot ? 'runuser' : 'node', asRoot ? ['-u', 'nobody', '--', 'node', ...args] : args, {
      reject: false,
      extendEnv: false,
      env: cleanEnv({ BOLAG_HOME: join(dir, 'home'), HOME: dir }),
    });
    expect(r.exitCode, String(r.stderr)).toBe(2);
    expect(String(r.stderr).trim().split('\n')).toEqual([expect.stringMatching(/^error: Port 80 on 127\.0\.0\.1 may not be used by this user \((EACCES|EPERM); ports below 1024 need privileges\)/)]);
    expect(existsSync(db)).toBe(false);
  });
});

describe('bolag serve --processes past four a core', () => {
  it('is refused before a process is forked (exit 2, one line)', async () => {
    const most = Math.max(8, 4 * availableParallelism());
    const r = await serveExit('processes-many', ['--port', '0', '--processes', String(most + 1)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`error: Invalid --processes: ${most + 1}; it must be from 1 to ${most}.`]);
  }, 60_000);
});

describe('a port another process holds', () => {
  it('bolag serve and bolag listen say so in the words of --port (exit 2), before serve creates anything', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = String((holder.address() as AddressInfo).port);
    try {
      const serve = await serveExit('busy', ['--port', port]);
      expect(serve.exitCode).toBe(2);
      expect(serve.stderr.trim().split('\n')).toEqual([`error: Port ${port} on 127.0.0.1 is in use; choose another with --port (0 picks a free one).`]);
      // Nothing created: no register, no profile.
      expect(existsSync(join(scratch(), 'busy.db'))).toBe(false);
      const listen = await execa('node', [BIN, 'listen', '--port', port, '--secret', 'whsec_abcdefabcdefabcdefabcdefabcdef'], { reject: false, extendEnv: false, env: env('busy-listen'), timeout: 20_000 });
      expect(listen.exitCode).toBe(2);
      expect(String(listen.stderr).trim()).toBe(`error: Port ${port} is in use; choose another with --port (0 picks a free one).`);
    } finally {
      holder.close();
    }
  }, 60_000);
});

describe('bolag serve --processes 1: SIGTERM on the first start', () => {
  it('closes gracefully and exits 0, as on later starts', async () => {
    const child = execa('node', [BIN, 'serve', '--processes', '1', '--port', '0', '--seed-count', '200', '--db', join(scratch(), 'first.db')], {
      reject: false,
      extendEnv: false,
      env: env('first'),
    });
    let stderr = '';
    let stdout = '';
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        // The key is printed after the profile "local" has been saved.
        if (/listening on/.test(stderr) && /^bk_\S+\n/.test(stdout)) resolve();
      };
      child.stderr!.on('data', (c: Buffer) => ((stderr += c.toString()), check()));
      child.stdout!.on('data', (c: Buffer) => ((stdout += c.toString()), check()));
      child.on('exit', () => reject(new Error(`serve exited early: ${stderr}`)));
    });
    child.kill('SIGTERM');
    const r = await child;
    expect(r.signal ?? null).toBeNull();
    expect(r.exitCode).toBe(0);
    expect(stderr).toMatch(/shutting down/);
  }, 120_000);
});

describe('a first start on a second register', () => {
  it('keeps the profile "local" of the first as local-previous, and says so', async () => {
    // Exploratory run, 2026-11-28: the second start replaced "local" and its key, stored nowhere else.
    const start = async (db: string) => {
      const child = execa('node', [BIN, 'serve', '--processes', '1', '--port', '0', '--seed-count', '100', '--db', join(scratch(), db)], { reject: false, extendEnv: false, env: env('two-registers') });
      let stderr = '';
      let stdout = '';
      await new Promise<void>((resolve, reject) => {
        const check = () => /listening on/.test(stderr) && /^bk_\S+\n/.test(stdout) && resolve();
        child.stderr!.on('data', (c: Buffer) => ((stderr += c.toString()), check()));
        child.stdout!.on('data', (c: Buffer) => ((stdout += c.toString()), check()));
        child.on('exit', () => reject(new Error(`serve exited early: ${stderr}`)));
      });
      child.kill('SIGTERM');
      await child;
      return { key: stdout.trim(), stderr };
    };
    const first = await start('one.db');
    const second = await start('two.db');
    expect(second.key).not.toBe(first.key);
    expect(second.stderr).toContain('is kept as "local-previous"');
    const keyOf = async (profile: string) =>
      String((await execa('node', [BIN, 'config', 'get', 'api_key', '--profile', profile], { reject: false, extendEnv: false, env: env('two-registers') })).stdout).trim();
    expect(await keyOf('local')).toBe(second.key);
    expect(await keyOf('local-previous')).toBe(first.key);
  }, 120_000);
});
