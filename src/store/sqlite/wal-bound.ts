// Keeps the write-ahead log of a long import from growing without end. SQLite's automatic
// checkpoint copies the log back into the database but starts the log over only when no reader
// holds an older snapshot; a server reading all the time (searches, its workers) always did, and
// a weekly import grew the log to 8.5 GB, every page appended to a file that only grew (its
// system time doubled). Past the bound, the import truncates the log: SQLite waits for the
// readers of older snapshots (each a few milliseconds) and starts it over.
import { statSync } from 'node:fs';
import type { Db } from './database.js';

/** The log's size past which it is truncated: several of the import's automatic checkpoints. */
const WAL_BOUND_BYTES = 1 << 30;
/** How long the truncation waits for older readers (a long export's): tried again later. */
const TRUNCATE_WAIT_MS = 200;
/**
 * After a try that found an older reader, the next waits this long: the truncation holds the
 * write lock while it waits, and an export reading for minutes would otherwise cost the import
 * 200 ms of every quarter-second transaction.
 */
const RETRY_AFTER_MS = 5000;
const retryAt = new WeakMap<Db, number>();

/** Called between the import's transactions. True when the log was truncated. */
export function boundWal(db: Db, boundBytes = WAL_BOUND_BYTES, retryAfterMs = RETRY_AFTER_MS): boolean {
  if (db.memory || performance.now() < (retryAt.get(db) ?? 0)) return false;
  let size: number;
  try {
    size = statSync(`${db.name}-wal`).size;
  } catch {
    return false;
  }
  if (size <= boundBytes) return false;
  const timeoutMs = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${TRUNCATE_WAIT_MS}`);
  try {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    if (result.busy === 0) return true;
    retryAt.set(db, performance.now() + retryAfterMs);
    return false;
  } finally {
    db.pragma(`busy_timeout = ${timeoutMs}`);
  }
}
