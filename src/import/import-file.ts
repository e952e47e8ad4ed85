// `bolag db import FILE`: upserts by org_nr in one transaction with its events (the outbox).
// Our JSONL is read on a thread of its own, which settles the lines equal to their stored
// records while the import compares and writes the rest (match-ahead.ts).
import { IMPORT_BATCH_SIZE, type ImportResult, type ImportWait } from '../store/import-types.js';
import type { Store } from '../store/store.js';
import { matchesExportLine } from './ours/export-line.js';
import { canMatchAhead, matchAhead } from './ours/match-ahead.js';
import type { MatchMode, MatchRegister } from './ours/match-messages.js';
import { planRecord } from './plan-record.js';
import { detectFormat, readImportRecords } from './read-records.js';
import { readLinesSync } from './read-lines.js';

export interface ImportFileOptions {
  batchSize?: number;
  /** How the reading thread shares the comparing (tests); default balanced. */
  matchMode?: MatchMode;
  /** After each batch: the records read so far. */
  onProgress?: (records: number) => void;
  /** Waiting for another process's first load of the register, or its write lock (ImportOptions.onWait). */
  onWait?: (why: ImportWait) => void;
}

export async function importFile(store: Store, path: string, opts: ImportFileOptions = {}): Promise<ImportResult> {
  const batchSize = opts.batchSize ?? IMPORT_BATCH_SIZE;
  const register = registerOf(store);
  if (register === undefined || !canMatchAhead() || !isJsonl(path)) {
    return store.companies.importRecords(readImportRecords(path), planRecord, { matchesStored: matchesExportLine, batchSize, onBatch: opts.onProgress, onWait: opts.onWait });
  }
  const ahead = matchAhead(path, register, { batchSize, mode: opts.matchMode });
  try {
    return await store.companies.importRecords(ahead.records, planRecord, {
      matchesStored: matchesExportLine,
      batchSize,
      onLocked: ahead.locked,
      onBatch: opts.onProgress,
      onWait: opts.onWait,
    });
  } finally {
    await ahead.close();
  }
}

/** Where a matching thread finds the store's register: not in a SQLite register in memory. */
function registerOf(store: Store): MatchRegister | undefined {
  const { dbPath, databaseUrl } = store.location;
  if (store.kind === 'postgres') return databaseUrl === undefined ? undefined : { databaseUrl };
  return dbPath === undefined || dbPath === ':memory:' ? undefined : { dbPath };
}

function isJsonl(path: string): boolean {
  const lines = readLinesSync(path);
  try {
    const first = lines.next();
    return !first.done && detectFormat(path, first.value.text) === 'jsonl';
  } finally {
    lines.return(undefined);
  }
}
