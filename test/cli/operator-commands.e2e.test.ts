// Operator commands that could change or create the wrong thing, without a word:
// - `bolag db seed` replaces every company of the register (ids reused for other companies, no
//   events): on a register that holds companies it asks for --replace first, unless the
//   register is one whose creation was cut short;
// - `bolag db stats` on a --db that is not there made an empty register there;
// - `bolag admin keys create --plan` for an existing account on another plan was ignored.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryScratch, bolag, cleanEnv } from './helpers.js';

const scratch = binaryScratch('bolag-db-seed-');

describe('bolag db seed', () => {
  it('creates an empty register, and replaces a filled one only with --replace', async () => {
    const env = cleanEnv({ BOLAG_HOME: join(scratch(), 'home'), XDG_CONFIG_HOME: join(scratch(), 'config') });
    const db = join(scratch(), 'r.db');
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
    const env = cleanEnv({ BOLAG_HOME: join(scratch(), 'home'), XDG_CONFIG_HOME: join(scratch(), 'config') });
    const missing = join(scratch(), 'mistyped.db');
    const r = await bolag(['db', 'stats', '--db', missing], { env });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr).trim()).toBe(`error: No register at ${missing}. — check --db, or create one with bolag db seed or bolag serve`);
    expect(existsSync(missing)).toBe(false);
  });
});

describe('bolag admin keys create --plan', () => {
  it('sets the plan of a new account, and is refused for an existing account on another plan', async () => {
    const env = cleanEnv({ BOLAG_HOME: join(scratch(), 'home'), XDG_CONFIG_HOME: join(scratch(), 'config') });
    const db = join(scratch(), 'admin.db');
    const create = (...extra: string[]) => bolag(['admin', 'keys', 'create', '--db', db, '--scopes', 'companies:read', '--account', 'acme', ...extra], { env });
    const first = await create('--plan', 'free');
    expect(first.exitCode).toBe(0);
    expect(String(first.stdout)).toMatch(/^bk_/);
    const other = await create('--plan', 'pro');
    expect(other.exitCode).toBe(2);
    expect(String(other.stderr).trim()).toBe('error: Account "acme" exists on plan free; --plan sets the plan of a new account only.');
    expect(String(other.stdout)).toBe('');
    // Without --plan, or with the account's own, another key for it.
    expect((await create()).exitCode).toBe(0);
    expect((await create('--plan', 'free')).exitCode).toBe(0);
  }, 60_000);
});

