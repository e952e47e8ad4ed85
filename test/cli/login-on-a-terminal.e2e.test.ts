// bolag login on a real terminal (a pseudo-terminal made by Python's pty module): Ctrl-D at a
// question ends it as cancelled, exit 130 and one line, with no profile saved. Until 2026-11-29
// the unanswered prompt let the process run out of work and exit 0, as if it had logged in.
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, BUILT, cleanEnv } from './helpers.js';

const HAS_PYTHON = (await execa('python3', ['-c', 'import pty'], { reject: false })).exitCode === 0;

// Runs argv on a pseudo-terminal, waits for the first question, sends Ctrl-D, and prints what the
// terminal showed, then the exit code on a line of its own.
const ON_A_TERMINAL = `
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
out = b''
def read(until):
    global out
    end = time.time() + 20
    while time.time() < end and until not in out:
        if select.select([fd], [], [], 0.1)[0]:
            try: out += os.read(fd, 4096)
            except OSError: return
read(b'Base URL')
os.write(fd, b'\\x04')
read(b'\\nexit-never')
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode('utf-8', 'replace') + '\\nexit=' + str(os.waitstatus_to_exitcode(status)) + '\\n')
`;

describe.runIf(BUILT && HAS_PYTHON)('bolag login on a terminal', () => {
  const home = mkdtempSync(join(tmpdir(), 'bolag-login-tty-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('Ctrl-D at a question cancels: exit 130, "Cancelled", nothing saved', async () => {
    const r = await execa('python3', ['-c', ON_A_TERMINAL, process.execPath, BIN, 'login', '--profile', 'eof'], {
      env: cleanEnv({ BOLAG_HOME: home }),
      extendEnv: false,
      timeout: 60_000,
    });
    expect(r.stdout).toContain('Base URL of the service');
    expect(r.stdout).toMatch(/Cancelled \(the input ended\)\./);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('exit=130');
    const saved = existsSync(join(home, 'config.json')) ? readFileSync(join(home, 'config.json'), 'utf8') : "";
    expect(saved).not.toContain('eof');
  }, 90_000);
});
