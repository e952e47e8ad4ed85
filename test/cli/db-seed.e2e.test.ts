// `bolag db stats` on a path that is not a register says so. `bolag db seed` replaces every company of the register it is pointed at (ids reused for other
// companies, no events): on a register that holds companies it asks for --replace first, unless
// the register is one whose creation was cut short.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../exports/built.js';
import { bolag, cleanEnv } from './helpers.js';

let dir: string;
beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'bolag-db-seed-'));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bolag db seed', () => {
  it('creates an empty register, and replaces a filled one only with --replace', async () => {
    const env = cleanEnv({ BOLAG_HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config') });
    const db = join(dir, 'r.db');
    const companies = async () => JSON.parse(String((await bolag(['db', 'stats', '--db', db], { env })).stdout)).companies as number;
    expect((await bolag(['db', 'seed', '--db', db, '--count', '50'], { env })).exitCode).toBe(0);
    expect(await companies()).toBe(50);
    const refused = await bolag(['db', 'seed', '--db', db, '--count', '70'], { env });
    expect(refused.exitCode).toBe(2);
    expect(String(refused.stderr).trim().split('\n')).toEqual([expect.stringMatching(/^error: .* already holds a register; .* — give --replace to do so$/)]);
    expect(await companies()).toBe(50);
    expect((await bolag(['db', 'seed', '--db', db, '--count', '70', '--replace'], { env })).exitCode).toBe(0);
    expect(await companies()).toBe(70);
  }, 60_000);
});

describe('bolag db stats', () => {
  it('on a --db that is not there: an error, and no file made', async () => {
    const env = cleanEnv({ BOLAG_HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config') });
    const missing = join(dir, 'mistyped.db');
    const r = await bolag(['db', 'stats', '--db', missing], { env });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr).trim()).toBe(`error: No register at ${missing}. — check --db, or create one with bolag db seed or bolag serve`);
    expect(existsSync(missing)).toBe(false);
  });
});
