// Scratch folders beside the database: one left by a process that was killed is removed by the
// next one made beside it; one whose maker still runs, or that is being made, is kept.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { makeSideFolder } from '../../src/store/sqlite/side-folder.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-side-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function folder(name: string, maker?: number): string {
  const path = join(dir, name);
  mkdirSync(path);
  writeFileSync(join(path, 'rows-1.db'), 'x'.repeat(1000));
  if (maker !== undefined) writeFileSync(join(path, 'maker.pid'), `${maker}\n`);
  return path;
}

it("removes the folders of its kind whose maker is gone, and keeps the others'", () => {
  const deadPid = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));
  const abandoned = folder('.seed-dead01', deadPid);
  const live = folder('.seed-live01', process.ppid);
  const makingNow = folder('.seed-new001');
  const oldUnnamed = folder('.seed-old001');
  const hourAgo = new Date(Date.now() - 3600_000);
  utimesSync(oldUnnamed, hourAgo, hourAgo);
  const otherKind = folder('.import-indexes-dead01', deadPid);
  const notOurs = folder('seed-data', deadPid);

  const made = makeSideFolder(join(dir, 'register.db'), '.seed-');

  expect(existsSync(made)).toBe(true);
  expect(readdirSync(made)).toEqual(['maker.pid']);
  expect(existsSync(abandoned)).toBe(false);
  expect(existsSync(oldUnnamed)).toBe(false);
  for (const kept of [live, makingNow, otherKind, notOurs]) expect(existsSync(kept)).toBe(true);

  // The other kind is swept by a folder of its own kind.
  makeSideFolder(join(dir, 'register.db'), '.import-indexes-');
  expect(existsSync(otherKind)).toBe(false);
  // A folder this process made and still uses is never another's to remove.
  makeSideFolder(join(dir, 'register.db'), '.seed-');
  expect(existsSync(made)).toBe(true);
});
