// `bolag db import` while another process's first load holds a SQLite register: it says on
// stderr that it waits and why (a first load at full size builds indexes for minutes, and a
// silent import looks hung), then imports once that load is done.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { seedRegister } from '../../src/app/seed-register.js';
import { FIRST_LOAD_WAIT, WRITE_LOCK_WAIT } from '../../src/cli/commands/db/import.js';
import { withCheckDigit } from '../../src/core/orgnr.js';
import { lockPath } from '../../src/store/sqlite/file-lock.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'bolag.js');
const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'bolag-import-waits-'));
let holder: ChildProcess | null = null;
afterAll(() => {
  holder?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A seeded register, and a JSONL file of one new company (the first one's record, renumbered and renamed). */
async function registerAndNewCompany(name: string, seed: string, orgNrBase: string, companyName: string): Promise<{ dbPath: string; file: string }> {
  const dbPath = join(dir, `${name}.db`);
  const store = openSqliteStore(dbPath);
  await seedRegister(store, { count: 30, seed });
  const { id: _id, ...base } = (await store.companies.get('c_0000001'))!;
  await store.close();
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, `${JSON.stringify({ ...base, org_nr: withCheckDigit(orgNrBase), name: companyName })}\n`);
  return { dbPath, file };
}

describe('bolag db import beside another process’s first load or long write', () => {
  it('tells on stderr that it waits, then imports once the lock is free', { timeout: 60_000 }, async () => {
    const { dbPath, file } = await registerAndNewCompany('register', 'import-waits', '559900400', 'Väntande Bolag AB');

    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    writeFileSync(lockPath(dbPath, 'first-load'), `${holder.pid}\n`);

    const importing = execa(process.execPath, [BIN, '--db', dbPath, 'db', 'import', file], { reject: false });
    let stderr = '';
    importing.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    for (let i = 0; i < 200 && !stderr.includes(FIRST_LOAD_WAIT); i++) await sleep(50);
    expect(stderr).toContain(FIRST_LOAD_WAIT);
    await sleep(300);
    expect(importing.exitCode).toBeNull(); // still waiting

    const exited = new Promise((r) => holder!.once('exit', r));
    holder.kill('SIGKILL');
    await exited;
    const r = await importing;
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 1, updated: 0 });
    // Said once, on a line of its own.
    expect(r.stderr.split(FIRST_LOAD_WAIT).length - 1).toBe(1);
    expect(r.stderr).toContain(`${FIRST_LOAD_WAIT}\n`);
  });

  it('waits for a write lock held past the busy timeout, says so once, then imports', { timeout: 60_000 }, async () => {
    // Until 2026-11-27 it failed with "database is locked" after 5 s, beside a long
    // all-or-nothing import of another process.
    const { dbPath, file } = await registerAndNewCompany('locked', 'import-waits-lock', '559900401', 'Låst Väntan AB');

    // Another process holds the write lock until told to let go.
    const writer = spawn(
      process.execPath,
      ['-e', `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))}); const d = new D(${JSON.stringify(dbPath)}); d.exec('BEGIN IMMEDIATE'); console.log('locked'); process.stdin.once('data', () => { d.exec('COMMIT'); d.close(); process.exit(0); });`],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    holder = writer;
    await new Promise<void>((r) => writer.stdout!.once('data', () => r()));
    const importing = execa(process.execPath, [BIN, '--db', dbPath, 'db', 'import', file], { reject: false });
    let stderr = '';
    importing.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // The busy timeout (5 s) passes before it says so.
    for (let i = 0; i < 400 && !stderr.includes(WRITE_LOCK_WAIT); i++) await sleep(50);
    expect(stderr).toContain(WRITE_LOCK_WAIT);
    expect(importing.exitCode).toBeNull();
    const exited = new Promise((r) => writer.once('exit', r));
    writer.stdin!.write('go\n');
    await exited;
    const r = await importing;
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 1 });
    expect(r.stderr.split(WRITE_LOCK_WAIT).length - 1).toBe(1);
  });
});
