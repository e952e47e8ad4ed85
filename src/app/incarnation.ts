// Restart takeover (issue 12): each server process registers an incarnation, and the leases it
// takes carry its id. A process that starts looks at the incarnations registered on its own host
// (same host name, boot and pid namespace, where a pid means one process) and hands back at once
// the leases of those whose process is gone, instead of waiting for the leases to lapse (30 s for
// an export). Incarnations on other hosts are left to their leases: we cannot see their processes.
import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Incarnation, Store } from '../store/store.js';

/** Where a pid names one process: the host name, its boot, and the pid namespace. */
export function hostKey(): string {
  const read = (f: () => string) => {
    try {
      return f().trim();
    } catch {
      return '';
    }
  };
  const boot = read(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'));
  const pidNamespace = read(() => readlinkSync('/proc/self/ns/pid'));
  return [hostname(), boot, pidNamespace].join('/');
}

/** True while a process with this pid exists (EPERM: it exists, as another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface RunningIncarnation {
  incarnation: Incarnation;
  /** Jobs whose leases were taken over from dead incarnations at start. */
  tookOver: number;
  /** On a clean close: forget this incarnation (handing back anything it still holds). */
  end(): Promise<void>;
}

/** Incarnations running in this process (tests and the local register run several servers in one). */
const runningHere = new Set<string>();

/** Ids of a serving process's incarnations, and of the CLI's in-process register's. */
const SERVE_PREFIX = 'inc_';
const LOCAL_PREFIX = 'inl_';

/** Whether a `bolag serve` process other than this one runs on this host against the store. */
export async function serveRunsBeside(store: Store): Promise<boolean> {
  return (await store.incarnations.onHost(hostKey())).some((i) => i.id.startsWith(SERVE_PREFIX) && i.pid !== process.pid && processAlive(i.pid));
}

export async function startIncarnation(store: Store, opts: { local?: boolean } = {}): Promise<RunningIncarnation> {
  const host = hostKey();
  let tookOver = 0;
  for (const earlier of await store.incarnations.onHost(host)) {
    // Our own pid on an incarnation not running here: an earlier process with this pid, so gone.
    const gone = earlier.pid === process.pid ? !runningHere.has(earlier.id) : !processAlive(earlier.pid);
    if (gone) tookOver += await store.incarnations.reap(earlier.id);
  }
  const incarnation: Incarnation = { id: `${opts.local ? LOCAL_PREFIX : SERVE_PREFIX}${randomBytes(9).toString('base64url')}`, host, pid: process.pid, started_at: new Date().toISOString() };
  await store.incarnations.register(incarnation);
  runningHere.add(incarnation.id);
  return {
    incarnation,
    tookOver,
    end: async () => {
      runningHere.delete(incarnation.id);
      await store.incarnations.reap(incarnation.id);
    },
  };
}
