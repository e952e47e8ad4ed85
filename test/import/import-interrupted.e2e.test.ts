// Ctrl-C during `bolag db import` stops it: exit 130 after the batch it is on, that batch's
// transaction rolled back, and a line saying what became of the register. Until 2026-11-28 the
// import never looked at the interrupt: it went on committing for the 3 s grace and could end
// with exit 0 after the user had pressed Ctrl-C. The real binary, as a user runs it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { bolag } from '../cli/helpers.js';
import { generateWeeks, weekFiles } from '../helpers/generated-weeks.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'bolag-import-interrupted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const companies = (db: string): number => {
  const look = new Database(db, { readonly: true });
  try {
    return look.prepare('SELECT count(*) FROM companies').pluck().get() as number;
  } catch {
    return 0; // not migrated yet
  } finally {
    look.close();
  }
};

describe('Ctrl-C during an import', () => {
  it('stops it with exit 130 and says what stays; the same import run again finishes it', { timeout: 240_000 }, async () => {
    const files = weekFiles(dir, 1);
    // Large enough that its rows take seconds after its first commit, on a fast machine too.
    generateWeeks(files, 400_000, 10);
    const db = join(dir, 'register.db');
    const child = spawn(process.execPath, [join(ROOT, 'bin/bolag.js'), '--db', db, 'db', 'import', '--source', 'bolagsverket', files.bolagsverket[0]], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    // Once the load has committed rows: one Ctrl-C, as a user presses it.
    while (!existsSync(db) || companies(db) === 0) await sleep(50);
    const pressed = Date.now();
    child.kill('SIGINT');
    const code = await exited;
    expect(code, stderr).toBe(130);
    // Stopped by the import itself, not by the 3 s grace's hard exit (which prints "Interrupted." alone).
    expect(stderr).toContain('What was imported before stays; run the same import again to finish it');
    expect(Date.now() - pressed).toBeLessThan(3_000);
    expect(stdout).toBe('');
    const stopped = companies(db);
    expect(stopped).toBeGreaterThan(0);

    const again = await bolag(['--db', db, 'db', 'import', '--source', 'bolagsverket', files.bolagsverket[0]]);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    const summary = JSON.parse(String(again.stdout)) as { created: number; unreadable_lines: number; persons_left_out: number; rows: number };
    expect(companies(db)).toBe(stopped + summary.created);
    expect(companies(db)).toBe(summary.rows - summary.unreadable_lines - summary.persons_left_out);
  });
});
