// Opens the embedded database: WAL for concurrent readers while one writer works, and the
// migrations applied in order, each in its own transaction.
import Database from 'better-sqlite3';
import { accessSync, closeSync, constants, existsSync, openSync, statSync } from 'node:fs';
import { makeFolder } from '../../core/make-folder.js';
import { dirname, resolve } from 'node:path';
import { NotARegisterError } from '../not-a-register.js';
import { isLockHeldElsewhere, lockPath } from './file-lock.js';
import { COMPANY_INDEXES, FINGERPRINTS_INDEX, MIGRATIONS, RETIRED_COMPANY_INDEXES } from './migrations.js';
import { guardSchemaRaces } from './schema-races.js';

export type Db = Database.Database;

export function openDatabase(path: string, opts: { readonly?: boolean; bulkReader?: boolean } = {}): Db {
  // `x.db/` names a folder: SQLite made the file x.db all the same, past the 0600 below (found by
  // a review, 2026-11-29: a register readable by every user).
  if (/[\\/]$/.test(path)) throw new NotARegisterError(`${path} ends in a slash, which names a folder: give the register's file, e.g. ${path.replace(/[\\/]+$/, '')}.`);
  if (path !== ':memory:') {
    makeFolder(dirname(path), 0o700);
    // A new register is readable by its owner only: it holds webhook secrets, the key that signs
    // download links and every account's data (SQLite gives its log and shared-memory files the
    // database file's mode). One that is there keeps its mode.
    if (!opts.readonly) {
      try {
        closeSync(openSync(path, 'a', 0o600));
      } catch {
        // A folder, a read-only place: SQLite's own open below says so, with the path (withPath).
      }
    }
  }
  let db: Db | undefined;
  try {
    db = new Database(path, { readonly: opts.readonly ?? false });
    guardSchemaRaces(db);
    // Before the first read: another process may be creating this register at the same moment.
    db.pragma('busy_timeout = 5000');
    refuseForeignDatabase(db, path);
    // Set before the first table exists (no effect on an existing file): bigger pages make the
    // bulk index builds of a fresh register measurably cheaper.
    db.pragma('page_size = 16384');
    enterWal(db);
  } catch (e) {
    db?.close();
    throw withPath(e, path);
  }
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // A bulk reader scans the whole register once: a small cache and no memory map, so its
  // pages do not stay resident.
  db.pragma(opts.bulkReader ? 'cache_size = -2048' : 'cache_size = -65536'); // 2 or 64 MiB page cache
  db.pragma(opts.bulkReader ? 'mmap_size = 0' : 'mmap_size = 1073741824');
  db.pragma('temp_store = MEMORY');
  if (!opts.readonly) migrate(db);
  return db;
}

/**
 * SQLite's "unable to open database file" and "attempt to write a readonly database" name no
 * file: said with the path and the likely reason (a folder, a read-only place).
 */
function withPath(e: unknown, path: string): unknown {
  const code = (e as { code?: string }).code;
  // A file that is no SQLite database at all (a text file given as --db): another program's file,
  // refused untouched as a foreign SQLite database is, with its path (it was "file is not a database").
  if (code === 'SQLITE_NOTADB') return new NotARegisterError(`${path} is not a SQLite database (another kind of file), so not a bolag register; nothing in it was changed.`);
  if (code !== 'SQLITE_CANTOPEN' && code !== 'SQLITE_READONLY' && code !== 'SQLITE_READONLY_DIRECTORY') return e;
  let why = '';
  if (existsSync(path) && statSync(path).isDirectory()) why = ': it is a folder; give the path of a file';
  else {
    try {
      accessSync(dirname(path), constants.W_OK);
      if (existsSync(path)) accessSync(path, constants.W_OK);
    } catch {
      why = ': that place is read-only for this user';
    }
  }
  return Object.assign(new Error(`Cannot open the register ${path} (${(e as Error).message})${why}.`), { code, cause: e });
}

/**
 * A SQLite file with tables of its own and none of ours is some other program's database: it is
 * not migrated into a register (nor switched to WAL), whatever command opened it. An empty file
 * is a new register.
 */
function refuseForeignDatabase(db: Db, path: string): void {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
  if (tables.length === 0 || tables.includes('schema_migrations')) return;
  const shown = tables.slice(0, 3).join(', ') + (tables.length > 3 ? ', …' : '');
  throw new NotARegisterError(`${path} is a SQLite database of something else (tables ${shown}), not a bolag register; nothing in it was changed.`);
}

/** How long a process opening a new file waits for another switching it to WAL at the same moment. */
const WAL_SWITCH_WAIT_MS = 15_000;

/**
 * Switches the file to WAL. On a new file two processes opening it at once (two `serve` units
 * started together) both read it in rollback mode and both want its write lock to switch: SQLite
 * answers one with SQLITE_BUSY at once, without its busy handler (waiting could deadlock), and that
 * process failed to start. Tried again until the other has switched (then it is a no-op).
 */
function enterWal(db: Db): void {
  const deadline = Date.now() + WAL_SWITCH_WAIT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.random() * 40);
    }
  }
}

/** How long a starting process waits for another that migrates or builds an index. */
const MIGRATION_BUSY_MS = 15 * 60_000;

export function migrate(db: Db): void {
  // Another process starting on the same file may hold the write lock for as long as it builds
  // an index after a migration (seconds to minutes on a large register): this one waits for it
  // rather than fail its start with SQLITE_BUSY after the usual 5 s.
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${MIGRATION_BUSY_MS}`);
  try {
    applyMigrations(db);
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

function applyMigrations(db: Db): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
  for (const m of MIGRATIONS) {
    if (applied.has(m.version)) continue;
    // Under the write lock, looked at again: another process opening the file at the same
    // moment may have applied it meanwhile.
    db.transaction(() => {
      if (isApplied.get(m.version)) return;
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
    }).immediate();
  }
  ensureCompanyIndexes(db);
}

export function ensureCompanyIndexes(db: Db): void {
  // While another process creates the register (first start, under the 'bootstrap' lock) it has
  // dropped these to build them after the load: building them now would race its load.
  if (!db.memory && isLockHeldElsewhere(lockPath(resolve(db.name), 'bootstrap'))) return;
  // Nor while another process's first load runs, which builds what it dropped at its end.
  if (!db.memory && isLockHeldElsewhere(lockPath(resolve(db.name), 'first-load'))) return;
  for (const name of RETIRED_COMPANY_INDEXES) db.exec(`DROP INDEX IF EXISTS ${name}`);
  for (const sql of COMPANY_INDEXES) db.exec(sql);
}

/** The index imports settle unchanged lines from (migrations.ts): made when an import first needs it. */
export function ensureFingerprintsIndex(db: Db): void {
  db.exec(FINGERPRINTS_INDEX);
}

/** Drops the secondary indexes of the companies, but those `keep` names by their CREATE statement. */
export function dropCompanyIndexes(db: Db, keep: (sql: string) => boolean = () => false): void {
  for (const sql of [...COMPANY_INDEXES, FINGERPRINTS_INDEX]) {
    if (keep(sql)) continue;
    const name = /INDEX IF NOT EXISTS (\w+)/.exec(sql)?.[1];
    if (name) db.exec(`DROP INDEX IF EXISTS ${name}`);
  }
  for (const name of RETIRED_COMPANY_INDEXES) db.exec(`DROP INDEX IF EXISTS ${name}`);
}
