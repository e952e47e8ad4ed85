// makeFolder: mkdir -p one level at a time, with the part in the way and the reason named, and
// no endless loop where folders cannot be made (/proc, where Node 20's recursive mkdir spun).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderError, makeFolder } from '../../src/core/make-folder.js';
import { BUILT, bolag, cleanEnv } from '../cli/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-make-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusal(path: string): FolderError {
  try {
    makeFolder(path);
  } catch (e) {
    expect(e).toBeInstanceOf(FolderError);
    return e as FolderError;
  }
  throw new Error(`${path} was made`);
}

describe('makeFolder', () => {
  it('makes every missing folder, with the mode asked for, and takes one already there', () => {
    makeFolder(join(dir, 'a', 'b', 'c'), 0o700);
    expect(statSync(join(dir, 'a', 'b', 'c')).isDirectory()).toBe(true);
    expect(statSync(join(dir, 'a', 'b')).mode & 0o777).toBe(0o700);
    makeFolder(join(dir, 'a', 'b', 'c'));
    makeFolder(dir);
  });

  it('names the file in the way, at the path or above it', () => {
    writeFileSync(join(dir, 'file'), 'x');
    for (const path of [join(dir, 'file'), join(dir, 'file', 'x', 'y')]) {
      const e = refusal(path);
      expect([e.path, e.reason]).toEqual([join(dir, 'file'), 'a file is in the way, not a folder']);
    }
  });

  it('ends at once where folders cannot be made', () => {
    const e = refusal('/proc/bolag-no-such/x');
    expect(e.path).toBe('/proc/bolag-no-such');
    expect(e.reason).toBe('folders cannot be made there');
  });
});

describe.runIf(BUILT)('the CLI, given such a place', () => {
  it('--db below a file, and --out under /proc: one line, exit 2', { timeout: 90_000 }, async () => {
    const env = cleanEnv({ BOLAG_HOME: join(dir, 'home') });
    const db = await bolag(['search', '--db', join(dir, 'file', 'r.db'), '--count'], { env, reject: false, timeout: 30_000 });
    expect(db.exitCode).toBe(2);
    expect(String(db.stderr)).toContain(`error: Cannot make the folder ${join(dir, 'file')}: a file is in the way, not a folder.`);
    // Checked before anything is asked of the service (port 1 answers nothing).
    const out = await bolag(['export', 'create', '--wait', '--out', '/proc/bolag-no-such', '--base-url', 'http://127.0.0.1:1', '--api-key', 'bk_x'], { env, reject: false, timeout: 30_000 });
    expect(out.exitCode).toBe(2);
    expect(String(out.stderr).trim().split('\n').at(-1)).toBe('error: --out /proc/bolag-no-such: folders cannot be made there.');
  });
});
