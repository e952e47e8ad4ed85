// A serving process checkpoints its WAL on a thread (sqlite/background-checkpoints.ts), never in
// its own commits: beside an import, SQLite's automatic checkpoint in a small commit copied the
// import's frames on the event loop. Through the compiled thread. What has been checkpointed is
// read from the WAL index (the -shm file) without checkpointing: its header's mxFrame (the
// frames in the WAL) and nBackfill (those copied into the database), native byte order.
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../exports/built.js';

let openSqliteStore: typeof import('../../src/store/sqlite/sqlite-store.js').openSqliteStore;
const dirs: string[] = [];

beforeAll(async () => {
  await ensureBuilt();
  ({ openSqliteStore } = (await import(join(ROOT, 'dist/src/store/sqlite/sqlite-store.js'))) as { openSqliteStore: typeof openSqliteStore });
}, 180_000);
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Writes `pages` pages of 16 KB in one transaction. */
function writePages(db: Database.Database, pages: number): void {
  db.exec('CREATE TABLE IF NOT EXISTS filler (b BLOB)');
  const insert = db.prepare('INSERT INTO filler VALUES (randomblob(15000))');
  db.transaction(() => {
    for (let i = 0; i < pages; i++) insert.run();
  })();
}

function walIndex(path: string): { frames: number; backfilled: number } {
  const shm = readFileSync(`${path}-shm`);
  return { frames: shm.readUInt32LE(16), backfilled: shm.readUInt32LE(96) };
}

function register(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bolag-checkpoints-'));
  dirs.push(dir);
  return join(dir, 'register.db');
}

it("checkpoints on its thread, not in the serving connection's commits", async () => {
  const path = register();
  const store = openSqliteStore(path);
  store.startBackgroundUpkeep();
  expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
  writePages(store.db, 1500);
  // Every frame of the 1,500 copied in, by the thread alone.
  await expect
    .poll(() => {
      const { frames, backfilled } = walIndex(path);
      return frames >= 1500 && backfilled === frames;
    }, { timeout: 5_000, interval: 100 })
    .toBe(true);
  await store.close();
});

it('leaves the WAL unchecked without the thread when automatic checkpoints are off (the check above can fail)', async () => {
  const path = register();
  const store = openSqliteStore(path);
  store.db.pragma('wal_autocheckpoint = 0');
  writePages(store.db, 1500);
  await new Promise((r) => setTimeout(r, 1_000));
  const { frames, backfilled } = walIndex(path);
  expect(frames).toBeGreaterThanOrEqual(1500);
  expect(backfilled).toBe(0);
  await store.close();
});

it('closes the register before a process with nothing else to do ends: the WAL gone, the exit code kept', async () => {
  const path = register();
  const script = `
    const { openSqliteStore } = await import(${JSON.stringify(join(ROOT, 'dist/src/store/sqlite/sqlite-store.js'))});
    const store = openSqliteStore(${JSON.stringify(path)});
    store.startBackgroundUpkeep();
    store.db.exec('CREATE TABLE filler (b BLOB)');
    for (let i = 0; i < 100; i++) store.db.prepare('INSERT INTO filler VALUES (randomblob(15000))').run();
    await store.close();
    console.log('closed');
    process.exitCode = 7;`;
  const r = await execa(process.execPath, ['--input-type=module', '-e', script], { reject: false });
  expect(r.stdout).toBe('closed');
  expect(r.exitCode).toBe(7);
  // The last connection closed: SQLite checkpointed and removed the WAL.
  expect(existsSync(`${path}-wal`)).toBe(false);
  const again = new Database(path, { readonly: true });
  expect(again.prepare('SELECT count(*) FROM filler').pluck().get()).toBe(100);
  again.close();
});
