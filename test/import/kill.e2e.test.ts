// An import killed (SIGKILL) in the middle changes nothing: it is one transaction with its
// events. The real binary (`bolag db import`) is killed once it has read part of the file.
import { execa } from 'execa';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedRegister } from '../../src/seed/seed-register.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { cleanEnv } from '../cli/helpers.js';
import { ensureBuilt, ROOT } from '../exports/built.js';

const LINES = 20_000;

let dir: string;
beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'bolag-import-kill-'));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How far the process has read the file: the offset of its descriptor (Linux /proc). */
function readOffset(pid: number, path: string): number | null {
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) === path) return Number(/pos:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1]);
    }
  } catch {
    // the process is gone or not yet there
  }
  return null;
}

it('an import killed halfway leaves the register and the outbox as they were', async (ctx) => {
  if (process.platform !== 'linux') ctx.skip();
  const dbPath = join(dir, 'register.db');
  const store = openSqliteStore(dbPath);
  await seedRegister(store, { count: 2000, seed: 'import-kill' });
  const orgNrs = store.db.prepare('SELECT org_nr FROM companies ORDER BY rowid').pluck().all() as string[];
  const before = store.db.prepare('SELECT group_concat(name, char(10)) FROM companies').pluck().get();
  const eventsBefore = (await store.outbox.readAfter(0, 1_000_000)).length;
  await store.close();
  // 20,000 renames with long names, cycling over the register: about 3.4 MB, read 1 MiB at a
  // time; killed once it has read its second MiB (the first MiB, some 6,000 renames, applied in its transaction).
  const file = join(dir, 'renames.jsonl');
  const padding = ' med ett mycket långt namn'.repeat(4);
  const lines: string[] = [];
  for (let i = 0; i < LINES; i++) lines.push(JSON.stringify({ org_nr: orgNrs[i % orgNrs.length], name: `Omdöpt nummer ${i}${padding} Aktiebolag` }));
  writeFileSync(file, lines.join('\n') + '\n');
  const size = statSync(file).size;

  const child = execa('node', [join(ROOT, 'bin/bolag.js'), '--db', dbPath, 'db', 'import', file], { reject: false, extendEnv: false, env: cleanEnv({ BOLAG_HOME: join(dir, 'home') }) });
  let killedAt: number | null = null;
  while (child.exitCode === null && killedAt === null) {
    const at = readOffset(child.pid!, file);
    if (at !== null && at >= 2 * 1024 * 1024 && at < size) {
      child.kill('SIGKILL');
      killedAt = at;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const result = await child;
  expect(killedAt, `the import finished before it could be killed: ${result.stdout}`).not.toBeNull();
  expect(result.signal).toBe('SIGKILL');

  const after = openSqliteStore(dbPath);
  try {
    expect(after.db.prepare('SELECT group_concat(name, char(10)) FROM companies').pluck().get()).toBe(before);
    expect((await after.outbox.readAfter(0, 1_000_000)).length).toBe(eventsBefore);
  } finally {
    await after.close();
  }
}, 120_000);
