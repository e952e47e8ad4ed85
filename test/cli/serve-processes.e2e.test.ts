// `bolag serve --processes 2`, the real binary: one address printed once, two server processes
// that both answer on it, a process killed from outside is replaced, and SIGTERM ends them all
// with exit 0. Which process answered is read from the kernel: a kept-alive connection is an
// open socket of the process that accepted it.
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, BUILT, cleanEnv } from './helpers.js';

const home = mkdtempSync(join(tmpdir(), 'bolag-processes-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function sockets(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
      } catch {
        return false;
      }
    }).length;
  } catch {
    return 0;
  }
}

async function children(pid: number): Promise<number[]> {
  const r = await execa('ps', ['-o', 'pid=', '--ppid', String(pid)], { reject: false });
  return r.stdout.split('\n').map((s) => Number(s.trim())).filter((n) => n > 0);
}

/** A GET on its own kept-alive connection (left open), resolving to the status. */
function getKeepingConnection(url: string, key: string, agents: Agent[]): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function until<T>(what: () => Promise<T> | T, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!BUILT || process.platform !== 'linux')('bolag serve --processes 2', () => {
  it('serves from two processes on one port, replaces a dead one, and stops all on SIGTERM', async () => {
    const child = execa('node', [BIN, 'serve', '--port', '0', '--processes', '2', '--seed-count', '1500', '--rate-limit', '0'], {
      reject: false,
      extendEnv: false,
      env: cleanEnv({ BOLAG_HOME: home }),
    });
    let stderr = '';
    let stdout = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const url = (await until(() => /listening on (\S+)/.exec(stderr)?.[1] ?? '', (u) => u !== '', 90_000)) as string;
    const key = await until(() => stdout.trim(), (k) => k.startsWith('bk_'));
    expect(stderr.match(/listening on/g)).toHaveLength(1);
    expect(stderr).toContain('2 processes');

    const workers = await until(() => children(child.pid!), (p) => p.length === 2);
    const before = workers.map(sockets);
    const agents: Agent[] = [];
    // The address is announced when the first process listens; until the second does, the
    // primary hands every connection to the first. Rounds of eight until both have taken some.
    let after = before;
    for (let round = 0; round < 20 && !(after[0] > before[0] && after[1] > before[1]); round++) {
      if (round > 0) await new Promise((r) => setTimeout(r, 250));
      const statuses = await Promise.all(Array.from({ length: 8 }, () => getKeepingConnection(`${url}/companies?limit=1`, key, agents)));
      expect(statuses).toEqual(Array(8).fill(200));
      after = workers.map(sockets);
    }
    // Each process holds some of the eight connections: both answered.
    expect(after[0]).toBeGreaterThan(before[0]);
    expect(after[1]).toBeGreaterThan(before[1]);
    for (const a of agents) a.destroy();

    // A process killed from outside is replaced, and the port keeps answering.
    process.kill(workers[0], 'SIGKILL');
    const replaced = await until(() => children(child.pid!), (p) => p.length === 2 && !p.includes(workers[0]));
    expect(replaced).toContain(workers[1]);
    const res = await fetch(`${url}/companies?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(stderr).toMatch(/process 0 ended unexpectedly/);

    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(0);
    for (const pid of replaced) expect(() => process.kill(pid, 0)).toThrow();
  });
});
