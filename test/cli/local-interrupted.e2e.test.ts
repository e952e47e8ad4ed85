// Ctrl-C while the local register is first created: the process ends at once (the signal's
// own effect: a listener waited up to 13 s for SQLite's index builds), and the next run creates
// the register again without taking the dead one for another process at work, and removes the
// scratch folder it left.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT, bolag, cleanEnv, jsonLines } from './helpers.js';

describe.runIf(BUILT)('the local register, interrupted while it is created', () => {
  const home = mkdtempSync(join(tmpdir(), 'bolag-cli-local-interrupted-'));
  const env = cleanEnv({ BOLAG_HOME: home, BOLAG_SEED_COUNT: '200000' });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('ends at Ctrl-C, and the next run starts over cleanly', async () => {
    const first = bolag(['search', 'snickeri', '--limit', '1'], { env, buffer: true });
    let err = '';
    await new Promise<void>((resolve, reject) => {
      first.stderr!.on('data', (c: Buffer) => {
        err += c.toString();
        if (err.includes('Creating the local register')) resolve();
      });
      void first.then(() => reject(new Error(`ended before creating:\n${err}`)));
    });
    first.kill('SIGINT');
    const r = await first;
    // Ended by the signal itself, not by a handler that got to run after the builds.
    expect(r.signal).toBe('SIGINT');
    expect(r.stdout).toBe('');

    const again = await bolag(['search', 'snickeri', '--limit', '1'], { env });
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(String(again.stderr)).not.toMatch(/Another process/);
    expect(String(again.stderr)).toMatch(/Creating the local register/);
    expect(jsonLines(String(again.stdout))).toHaveLength(1);
    expect(readdirSync(home).filter((n) => n.startsWith('.seed-'))).toEqual([]);
    expect(existsSync(join(home, 'register.db.bootstrap.lock'))).toBe(false);
  }, 180_000);
});
