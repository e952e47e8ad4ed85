// A register an import created is never filled with generated companies. Until 2026-11-28 a
// first import that failed (--strict on a dirty line) or was killed before its first commit
// left an empty register, and the next read command or `serve` seeded 1.2 million generated
// companies into it, which the next import then merged the real ones into, for good.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { binaryScratch, bolag, cleanEnv } from './helpers.js';

const WEEK1 = fileURLToPath(new URL('../fixtures/open-data/bolagsverket-week1.txt', import.meta.url));
const scratch = binaryScratch('bolag-imported-');

const companies = (path: string) => {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT count(*) FROM companies').pluck().get() as number;
  } finally {
    db.close();
  }
};

describe('a register an import created', () => {
  it('stays empty after a failed first import, and holds only what the next import brings', async () => {
    const dir = scratch();
    const path = join(dir, 'register.db');
    const env = cleanEnv({ BOLAG_HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), BOLAG_SEED_COUNT: '50' });
    const strict = await bolag(['db', 'import', '--db', path, '--source', 'bolagsverket', '--strict', WEEK1], { env });
    expect(strict.exitCode, String(strict.stderr)).toBe(2);
    expect(companies(path)).toBe(0);

    // A read in local mode over it: no register created, nothing found.
    const read = await bolag(['search', '--local', '--db', path, '--count'], { env });
    expect(read.exitCode, String(read.stderr)).toBe(0);
    expect(String(read.stdout).trim()).toBe('0');
    expect(String(read.stderr)).not.toMatch(/Creating the local register/);
    expect(companies(path)).toBe(0);

    const again = await bolag(['db', 'import', '--db', path, '--source', 'bolagsverket', WEEK1], { env });
    expect(again.exitCode, String(again.stderr)).toBe(0);
    const created = (JSON.parse(String(again.stdout).trim().split('\n').at(-1)!) as { created: number }).created;
    expect(created).toBeGreaterThan(0);
    expect(companies(path)).toBe(created);
  }, 60_000);

  it('is a generated register again after db seed --replace', async () => {
    const dir = scratch();
    const path = join(dir, 'register.db');
    const env = cleanEnv({ BOLAG_HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config') });
    expect((await bolag(['db', 'import', '--db', path, '--source', 'bolagsverket', WEEK1], { env })).exitCode).toBe(0);
    const seeded = await bolag(['db', 'seed', '--db', path, '--count', '30', '--replace'], { env });
    expect(seeded.exitCode, String(seeded.stderr)).toBe(0);
    expect(companies(path)).toBe(30);
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare("SELECT value FROM settings WHERE name = 'register.imported'").pluck().get() ?? null).toBeNull();
    } finally {
      db.close();
    }
  }, 60_000);
});
