// The lock file that lets one of several processes create a SQLite register on first start.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { isLockHeldElsewhere, lockPath, withFileLock } from '../../src/store/sqlite/file-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-file-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('runs one holder at a time, tells a waiter it waits, and removes the file after', async () => {
  const path = lockPath(join(dir, 'a.db'), 'bootstrap');
  const order: string[] = [];
  let release!: () => void;
  const first = withFileLock(path, async () => {
    order.push('first in');
    await new Promise<void>((r) => (release = r));
    order.push('first out');
  });
  await new Promise((r) => setTimeout(r, 20));
  let waits = 0;
  const second = withFileLock(path, async () => void order.push('second in'), { pollMs: 10, onWait: () => waits++ });
  await new Promise((r) => setTimeout(r, 100));
  expect(order).toEqual(['first in']);
  expect(waits).toBe(1);
  release();
  await Promise.all([first, second]);
  expect(order).toEqual(['first in', 'first out', 'second in']);
  expect(existsSync(path)).toBe(false);
});

it('takes over the lock of a process that died holding it', async () => {
  const path = lockPath(join(dir, 'b.db'), 'bootstrap');
  const deadPid = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));
  writeFileSync(path, `${deadPid}\n`);
  expect(isLockHeldElsewhere(path)).toBe(false);
  let waits = 0;
  let ran = false;
  await withFileLock(path, async () => void (ran = true), { pollMs: 10, onWait: () => waits++ });
  expect(ran).toBe(true);
  // Taking over is not waiting: nothing said of another process (after a Ctrl-C ended the first
  // creation of the local register, the next run said one was creating it).
  expect(waits).toBe(0);
  expect(existsSync(path)).toBe(false);
});

it('counts a live other process as holding the lock, and this process not', () => {
  const path = lockPath(join(dir, 'c.db'), 'bootstrap');
  writeFileSync(path, `${process.ppid}\n`);
  expect(isLockHeldElsewhere(path)).toBe(true);
  writeFileSync(path, `${process.pid}\n`);
  expect(isLockHeldElsewhere(path)).toBe(false);
  rmSync(path);
  expect(isLockHeldElsewhere(path)).toBe(false);
});
