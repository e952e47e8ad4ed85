// A lock across the processes of one machine, beside the database file: a file created with
// O_EXCL that names its holder's pid. SQLite's own write lock cannot stand in for it: first
// start seeds in many transactions and on threads, and a second process must neither seed too
// nor write (build indexes) in between. A holder that died leaves its file behind; the next
// process sees that the pid is gone and takes the lock over.
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Where the lock named `name` of the database at `dbPath` lives. */
export function lockPath(dbPath: string, name: string): string {
  return `${dbPath}.${name}.lock`;
}

/** Runs fn while holding the lock at `path`, waiting (polling) while another live process holds it. */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, opts: { pollMs?: number; onWait?: () => void } = {}): Promise<T> {
  const release = await holdFileLock(path, opts);
  try {
    return await fn();
  } finally {
    release();
  }
}

/** Takes the lock at `path` once no other live process holds it (polling); returns its release. */
export async function holdFileLock(path: string, opts: { pollMs?: number; onWait?: () => void } = {}): Promise<() => void> {
  const pollMs = opts.pollMs ?? 100;
  for (let waited = false; !tryAcquire(path); waited = true) {
    if (!waited) opts.onWait?.();
    await sleep(pollMs);
  }
  return () => {
    try {
      unlinkSync(path);
    } catch {
      // already gone: nothing to release
    }
  };
}

/** Whether a live process other than this one holds the lock at `path`. */
export function isLockHeldElsewhere(path: string): boolean {
  const holder = readHolder(path);
  return holder !== undefined && holder !== process.pid && holder !== 'unknown' && isProcessAlive(holder);
}

function tryAcquire(path: string, afterTakeover = false): boolean {
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const holder = readHolder(path);
  if (holder === undefined) return false; // released meanwhile: try again at the next poll
  const stale = holder === 'unknown' ? ageMs(path) > 10_000 : !isProcessAlive(holder);
  // Known limit: two waiters that both find the holder dead may both remove the file, the second
  // after the first has made its own, and then both hold the lock. That needs a process killed
  // while it held the lock and two others waiting on it within the same poll.
  if (stale) {
    try {
      unlinkSync(path);
    } catch {
      // another waiter removed it first
    }
    // At once, not at the next poll: taking over from a process that is gone is not waiting for
    // one (it said "Another process is creating the register" after a Ctrl-C had ended the first).
    return !afterTakeover && tryAcquire(path, true);
  }
  return false;
}

/** The holder's pid; 'unknown' while the file is empty (just created), undefined when there is no file. */
function readHolder(path: string): number | 'unknown' | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : 'unknown';
}

/** Whether a process with this pid runs (one of another user's counts). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
