// Operator commands that could change or create the wrong thing, without a word:
// - `bolag db seed` replaces every company of the register (ids reused for other companies, no
//   events): on a register that holds companies it asks for --replace first, unless the
//   register is one whose creation was cut short;
// - `bolag db stats` on a --db that is not there made an empty register there;
// - `bolag admin keys create --plan` for an existing account on another plan was ignored.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
    expect((await bolag(['db', 'seed', '--db', db, '--count', '20'], { env })).exitCode).toBe(0);
    const create = (...extra: string[]) => bolag(['admin', 'keys', 'create', '--db', db, '--scopes', 'companies:read', '--account', 'acme', ...extra], { env });
    const first = await create('--plan', 'free');
    expect(first.exitCode).toBe(0);
    expect(String(first.stdout)).toMatch(/^bk_/);
    const other = await create('--plan', 'pro');
    expect(other.exitCode).toBe(2);
    expect(String(other.stderr).trim()).toBe('error: Account "acme" exists on plan free; --plan sets the plan of a new account only.');
    expect(String(other.stdout)).toBe('');
    // Without --plan, or with the account's own, another key for it; a scope named twice is kept once.
    expect((await bolag(['admin', 'keys', 'create', '--db', db, '--scopes', 'companies:read,companies:read', '--account', 'acme'], { env })).exitCode).toBe(0);
    // --scopes given twice is refused, not the last one kept.
    const twice = await create('--scopes', 'all');
    expect([twice.exitCode, String(twice.stderr).trim()]).toEqual([2, 'error: --scopes is given twice; give it once.']);
    // An account without a name is none (found by a review, 2026-11-29: an account "" was made).
    for (const name of ['', '  ']) {
      const unnamed = await bolag(['admin', 'keys', 'create', '--db', db, '--scopes', 'companies:read', '--account', name], { env });
      expect([unnamed.exitCode, String(unnamed.stderr).trim(), String(unnamed.stdout)]).toEqual([2, 'error: Invalid --account: give the account a name, e.g. --account acme.', '']);
    }
    const keys = String((await bolag(['admin', 'keys', 'list', '--db', db], { env })).stdout).trim().split('\n').map((l) => JSON.parse(l) as { scopes: string[] });
    expect(keys.at(-1)!.scopes).toEqual(['companies:read']);
    expect((await create('--plan', 'free')).exitCode).toBe(0);
  }, 60_000);
});

// Exploratory run, 2026-11-28: a mistyped --db gave `admin keys create` a new empty register and
// a key no server knows; another program's SQLite file was migrated into a register; and a
// revoke of an unknown key printed the whole key.
describe('bolag admin keys and db stats on a --db that is no register', () => {
  const env = () => cleanEnv({ BOLAG_HOME: join(scratch(), 'home'), XDG_CONFIG_HOME: join(scratch(), 'config') });

  it('admin keys on a --db that is not there: an error, and no file made', async () => {
    const missing = join(scratch(), 'typo', 'x.db');
    for (const args of [['admin', 'keys', 'create', '--scopes', 'companies:read'], ['admin', 'keys', 'list']]) {
      const r = await bolag([...args, '--db', missing], { env: env() });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(String(r.stderr).trim()).toBe(`error: No register at ${missing}. — check --db, or create one with bolag db seed or bolag serve`);
      expect(String(r.stdout)).toBe('');
    }
    expect(existsSync(join(scratch(), 'typo'))).toBe(false);
  });

  it("another program's SQLite file is refused untouched, by every command", async () => {
    const file = join(scratch(), 'other.db');
    const other = new Database(file);
    other.exec('CREATE TABLE orders (id INTEGER); INSERT INTO orders VALUES (1)');
    other.close();
    const changes = join(scratch(), 'changes.jsonl');
    writeFileSync(changes, '{"org_nr":"556677-8899","name":"Exempel AB"}\n');
    for (const args of [['db', 'stats'], ['admin', 'keys', 'list'], ['db', 'import', changes]]) {
      const r = await bolag([...args, '--db', file], { env: env() });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(String(r.stderr).trim()).toBe(`error: ${file} is a SQLite database of something else (tables orders), not a bolag register; nothing in it was changed.`);
    }
    const after = new Database(file, { readonly: true });
    try {
      expect(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual(['orders']);
      expect(after.pragma('journal_mode', { simple: true })).toBe('delete');
    } finally {
      after.close();
    }
  });

  it('a --db that is no SQLite file at all is refused untouched, with its path, as a usage error (found by a review, 2026-11-29: exit 1, no path)', async () => {
    const text = join(scratch(), 'notes.db');
    writeFileSync(text, 'not a database, just notes\n'.repeat(200));
    const r = await bolag(['db', 'stats', '--db', text], { env: env() });
    expect([r.exitCode, String(r.stderr).trim()]).toEqual([2, `error: ${text} is not a SQLite database (another kind of file), so not a bolag register; nothing in it was changed.`]);
    expect(readFileSync(text, 'utf8')).toBe('not a database, just notes\n'.repeat(200));
  });

  it('a --db ending in a slash is refused, and no register is made past its 0600 (found by a review, 2026-11-29)', async () => {
    const named = join(scratch(), 'slashed', 'x.db');
    const r = await bolag(['db', 'seed', '--count', '10', '--db', `${named}/`], { env: env() });
    expect([r.exitCode, String(r.stderr).trim()]).toEqual([2, `error: ${named}/ ends in a slash, which names a folder: give the register's file, e.g. ${named}.`]);
    expect(existsSync(named)).toBe(false);
  });

  it('a --db that is a folder: said with its path', async () => {
    const folder = join(scratch(), 'a-folder');
    mkdirSync(folder, { recursive: true });
    const r = await bolag(['db', 'stats', '--db', folder], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr).trim()).toBe(`error: Cannot open the register ${folder} (unable to open database file): it is a folder; give the path of a file.`);
  });

  it('admin keys revoke of a key it does not know shows the key by its prefix only', async () => {
    const db = join(scratch(), 'revoke.db');
    expect((await bolag(['db', 'seed', '--db', db, '--count', '20'], { env: env() })).exitCode).toBe(0);
    const key = `bk_${'A1b2C3d4'.repeat(5)}xyz`;
    const r = await bolag(['admin', 'keys', 'revoke', key, '--db', db], { env: env() });
    expect(r.exitCode).toBe(4);
    expect(String(r.stderr)).toContain(`No active key matches "${key.slice(0, 11)}…"`);
    expect(String(r.stderr)).not.toContain(key.slice(11));
  });
});
