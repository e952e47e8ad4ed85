// A register an import created is never filled with generated companies. Until 2026-11-28 a
// first import that failed (--strict on a dirty line) or was killed before its first commit
// left an empty register, and the next read command or `serve` seeded 1.2 million generated
// companies into it, which the next import then merged the real ones into, for good.
import Database from 'better-sqlite3';
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { SEEDING_SETTING } from '../../src/app/seed-register.js';
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
    const dir = mkdtempSync(join(scratch(), 'case-'));
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

  it('stays empty after a first import whose zip was damaged (its checksum, found at the entry\'s end), not generated', async () => {
    const dir = mkdtempSync(join(scratch(), 'case-'));
    const path = join(dir, 'register.db');
    const env = cleanEnv({ BOLAG_HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), BOLAG_SEED_COUNT: '50' });
    const zip = join(dir, 'bolagsverket_bulkfil.zip');
    const made = new yazl.ZipFile();
    made.addBuffer(readFileSync(WEEK1), 'bolagsverket_bulkfil.txt', { compress: false });
    made.end();
    await new Promise<void>((resolve, reject) => made.outputStream.pipe(createWriteStream(zip)).on('close', resolve).on('error', reject));
    const bytes = readFileSync(zip);
    bytes[bytes.indexOf(Buffer.from('Exempel'))] = 'X'.charCodeAt(0);
    writeFileSync(zip, bytes);
    const damaged = await bolag(['db', 'import', '--db', path, '--source', 'bolagsverket', zip], { env });
    expect(damaged.exitCode).toBe(1);
    expect(String(damaged.stderr)).toMatch(/is damaged: its checksum does not match/);
    const read = await bolag(['search', '--local', '--db', path, '--count'], { env });
    expect(read.exitCode, String(read.stderr)).toBe(0);
    expect(String(read.stdout).trim()).toBe('0');
    expect(String(read.stderr)).not.toMatch(/Creating the local register/);
    expect(companies(path)).toBe(0);
  }, 60_000);

  it('is not one when the file was refused at its first line (a newcomer\'s wrong file left the local register empty for good)', async () => {
    const dir = mkdtempSync(join(scratch(), 'case-'));
    const path = join(dir, 'register.db');
    const env = cleanEnv({ BOLAG_HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), BOLAG_SEED_COUNT: '40' });
    const junk = join(dir, 'notes.txt');
    writeFileSync(junk, 'hello\n');
    const refused = await bolag(['db', 'import', '--db', path, '--source', 'bolagsverket', junk], { env });
    expect(refused.exitCode, String(refused.stderr)).toBe(2);
    const read = await bolag(['search', '--local', '--db', path, '--count'], { env });
    expect(read.exitCode, String(read.stderr)).toBe(0);
    expect(companies(path)).toBe(40);
  }, 60_000);

  it('is never a register whose seeding was stopped: such an import is refused, and the register is not wiped', async () => {
    const dir = mkdtempSync(join(scratch(), 'case-'));
    const path = join(dir, 'register.db');
    const env = cleanEnv({ BOLAG_HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), BOLAG_SEED_COUNT: '40' });
    const seeded = await bolag(['db', 'seed', '--db', path, '--count', '40'], { env });
    expect(seeded.exitCode, String(seeded.stderr)).toBe(0);
    // As a seed stopped half-way leaves it (test/cli/register-cut-short.e2e.test.ts kills one).
    const db = new Database(path);
    try {
      db.prepare('INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)').run(SEEDING_SETTING, JSON.stringify({ seed: 'bolag', count: 400000 }));
    } finally {
      db.close();
    }
    const r = await bolag(['db', 'import', '--db', path, '--source', 'bolagsverket', WEEK1], { env });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr).trim()).toMatch(/^error: This register holds part of a generated register whose creation was stopped/);
  }, 60_000);

  it('is a generated register again after db seed --replace', async () => {
    const dir = mkdtempSync(join(scratch(), 'case-'));
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
