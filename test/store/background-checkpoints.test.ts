// A serving process checkpoints its WAL on a thread (sqlite/background-checkpoints.ts), never in
// its own commits: beside an import, SQLite's automatic checkpoint in a small commit copied the
// import's frames on the event loop. Through the compiled thread. What a checkpoint did is read
// from the WAL: after a complete one, the next write starts the WAL over from its first frame.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
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

/** Writes about `pages` pages of 16 KB in one transaction. */
function writePages(db: Database.Database, pages: number): void {
  db.exec('CREATE TABLE IF NOT EXISTS filler (b BLOB)');
  const insert = db.prepare('INSERT INTO filler VALUES (randomblob(15000))');
  db.transaction(() => {
    for (let i = 0; i < pages; i++) insert.run();
  })();
}

/** Frames in the WAL, as another connection sees them (a checkpoint with nothing left to copy changes nothing). */
function walFrames(path: string): number {
  const other = new Database(path);
  try {
    return (other.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0].log;
  } finally {
    other.close();
  }
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
  // The thread copies the 1,500 frames in; the next write then starts the WAL over.
  await expect.poll(() => {
    store.db.prepare("INSERT INTO settings (name, value) VALUES ('tick-' || random(), 'x')").run();
    return walFrames(path);
  }, { timeout: 5_000, interval: 300 }).toBeLessThan(50);
  await store.close();
});

it('leaves the WAL to grow without the thread when automatic checkpoints are off (the check above can fail)', async () => {
  const path = register();
  const store = openSqliteStore(path);
  store.db.pragma('wal_autocheckpoint = 0');
  writePages(store.db, 1500);
  await new Promise((r) => setTimeout(r, 600));
  store.db.prepare("INSERT INTO settings (name, value) VALUES ('tick', 'x')").run();
  expect(walFrames(path)).toBeGreaterThan(1500);
  await store.close();
});

it('stops the thread at close and closes the register cleanly', async () => {
  const path = register();
  const store = openSqliteStore(path);
  store.startBackgroundUpkeep();
  writePages(store.db, 100);
  await store.close();
  // The last connection closed: SQLite checkpointed and removed the WAL, so the thread's connection was closed first.
  const again = new Database(path);
  expect((again.prepare('SELECT count(*) FROM filler').pluck().get() as number)).toBe(100);
  again.close();
});
