// What the matching thread (match-thread.ts) and the import (match-ahead.ts) share: the words of
// their shared memory, the thread's messages, and how the thread was started.
import type { ReadError } from '../open-data/read-messages.js';

/** Int32 words of the shared memory. */
export const SHARED = {
  /** Batches the thread has posted. */
  sent: 0,
  /** Batches the import has taken. */
  taken: 1,
  /**
   * 1 once the import holds the write lock (ImportOptions.onLocked): the thread may compare (on
   * SQLite, take its snapshot).
   */
  locked: 2,
  words: 3,
} as const;

/**
 * balanced: the thread compares a batch only while the import has another waiting (both cores
 * busy), else hands it over to be compared by the import; always: it compares every batch it may
 * (tests: every line the thread can settle is settled there).
 */
export type MatchMode = 'balanced' | 'always';

/** The register the thread reads: a SQLite file, or a PostgreSQL URL (with its `schema`). */
export type MatchRegister = { dbPath: string } | { databaseUrl: string };

export interface MatchThreadData {
  filePath: string;
  register: MatchRegister;
  batchSize: number;
  mode: MatchMode;
  shared: SharedArrayBuffer;
}

export type MatchMessage =
  /** A batch: the lines left to the import (numbers and texts, in order) and how many were settled. */
  | { type: 'batch'; lines: number[]; texts: string[]; settled: number }
  | { type: 'end' }
  | { type: 'error'; error: ReadError };
