// What the reading thread (read-thread.ts) and the import (read-ahead.ts) tell each other, and its errors made
// again on the import's side: an ImportError stays one (the CLI shows its line), any other keeps
// its message and code.
import { ImportError } from '../import-error.js';
import type { LineBatch } from './classify-lines.js';

export type ReadError = { kind: 'import'; line: number; detail: string } | { kind: 'other'; message: string; code?: string };

export type ReadMessage =
  | { type: 'start'; totalBytes: number }
  | { type: 'batch'; batch: LineBatch }
  | { type: 'end' }
  | { type: 'error'; error: ReadError };

/** What the import tells the thread: a batch taken (one more may be read ahead), a batch's memory given back. */
export type TakenMessage = { type: 'taken' } | { type: 'free'; buffer: ArrayBuffer };

export function describeReadError(e: unknown): ReadError {
  if (e instanceof ImportError) return { kind: 'import', line: e.line, detail: e.detail };
  const err = e as NodeJS.ErrnoException;
  return { kind: 'other', message: err instanceof Error ? err.message : String(e), ...(typeof err?.code === 'string' ? { code: err.code } : {}) };
}

export function readErrorOf(d: ReadError): Error {
  if (d.kind === 'import') return new ImportError(d.line, d.detail);
  return Object.assign(new Error(d.message), d.code ? { code: d.code } : {});
}
