// A register whose creation was stopped half-way (Ctrl-C during the local register's "this
// happens once") is created again, not used. Rows are committed as they are loaded and the
// indexes built after them: until 2026-11-28 the next start found companies and took the
// register as made, and near and SNI searches answered 0 from its empty spatial and SNI indexes.
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEEDING_SETTING } from '../../src/app/seed-register.js';
import { BIN, binaryScratch, bolag, cleanEnv } from './helpers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const scratch = binaryScratch('bolag-cut-short-');

/** What the file holds: companies, their full-text and spatial entries, and the seeding mark. */
function contents(path: string) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get() as number;
    return {
      companies: one('SELECT count(*) FROM companies'),
      fts: one('SELECT count(*) FROM companies_fts'),
      geo: one('SELECT count(*) FROM companies_geo'),
      seeding: (db.prepare('SELECT value FROM settings WHERE name = ?').pluck().get(SEEDING_SETTING) as string | undefined) ?? null,
    };
  } catch {
    return null; // not created far enough yet
  } finally {
    db.close();
  }
}

describe('a register whose creation was cut short', () => {
  it('is created again at the next start, whole', async () => {
    const path = join(scratch(), 'register.db');
    const env = cleanEnv({ BOLAG_HOME: join(scratch(), 'home'), XDG_CONFIG_HOME: join(scratch(), 'config'), BOLAG_SEED_COUNT: '20000' });
    // Killed once rows are committed and before the indexes are built.
    const seeding = execa('node', [BIN, 'db', 'seed', '--db', path, '--count', '400000'], { reject: false, extendEnv: false, env });
    let cut: ReturnType<typeof contents> = null;
    for (let i = 0; i < 600 && !cut; i++) {
      await sleep(50);
      const c = existsSync(path) ? contents(path) : null;
      if (c && c.companies > 0 && c.seeding !== null) cut = c;
    }
    seeding.kill('SIGKILL');
    await seeding;
    expect(cut, 'the seed was stopped while its rows were loaded').not.toBeNull();
    const left = contents(path)!;
    expect(left.seeding).not.toBeNull();
    expect(left.companies).toBeLessThan(400_000);

    // The local register's next start: created again (BOLAG_SEED_COUNT), then searched.
    const near = await bolag(['search', '--local', '--db', path, '--near', '59.33,18.07', '--radius-km', '100', '--count'], { env });
    expect(near.exitCode, String(near.stderr)).toBe(0);
    expect(Number(String(near.stdout).trim())).toBeGreaterThan(0);
    const whole = contents(path)!;
    expect(whole).toEqual({ companies: 20_000, fts: 20_000, geo: expect.any(Number), seeding: null });
    expect(whole.geo).toBeGreaterThan(0);
  }, 180_000);
});
