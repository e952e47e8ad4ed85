// The import engine over SQLite: records are read in batches; each batch is compared with what
// is stored in one indexed read by org_nr, and only what changed is written, with its events
// (the outbox) in the same transaction. Either one transaction for the whole import (all or
// nothing) or one per batch, so that a running server's writes interleave. The statistics
// (`company_counts`, stats/count-keys.ts) follow every row written: -1 for the values a row had,
// +1 for those it gets, added to the table in the transaction that wrote the rows.
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { companyIdFromRow } from '../../core/company-id.js';
import { normalizeOrgNr } from '../../core/orgnr.js';
import {
  type CompanyInternals,
  type ImportOptions,
  type ImportPlanner,
  type ImportRecord,
  type ImportRecords,
  IMPORT_BATCH_SIZE,
  IMPORT_COMMIT_ALONE_MS,
  IMPORT_COMMIT_MS,
  inBatches,
  internalsOf,
  isSettledLines,
  repeatedKeys,
  type ImportResult,
  type ImportWait,
  NO_INTERNALS,
  type PlannedWrite,
  recordsOf,
  type StoredCompany,
} from '../import-types.js';
import { COMPANY_COLUMNS, type CompanyRow, INTERNAL_COLUMNS, rowToCompany, toStoredCompany } from './company-row.js';
import { ALL_SIDE_INDEXES, CompanyWriter, type SideIndexes } from './company-writer.js';
import { type Db, ensureFingerprintsIndex } from './database.js';
import { FirstLoadNote } from './first-load-note.js';
import { importPragmas } from './import-pragmas.js';
import { clearSideIndexesPending, dropFirstLoadIndexes, firstLoadIndexes, withPending } from './first-load-indexes.js';
import { repairSideIndexes } from './side-index-repair.js';
import { listedRowPages } from './listed-rows.js';
import { readListed } from './read-listed.js';
import { RowidSet } from './rowid-set.js';
import { RowidsByNumber } from './rowids-by-number.js';
import { storedRecordReader } from './stored-records.js';
import { buildCompanyIndexes } from './side-indexes.js';
import { CountTally } from './stats/count-tally.js';
import { boundWal } from './wal-bound.js';
import { beginImmediateWaiting } from './write-transaction.js';
import { holdFileLock, isLockHeldElsewhere, lockPath } from './file-lock.js';
import { MatchProbe, matchHeads, settleMatching } from '../match-probe.js';

type StoredRow = CompanyRow & CompanyInternals;
/** The pause after each commit of an import batch by batch while a server runs (write-transaction.ts). */
const IMPORT_YIELD_MS = 5;
/** How often an import looks whether another process's first load is done. */
const FIRST_LOAD_POLL_MS = 100;
const COLUMNS = [...COMPANY_COLUMNS, ...INTERNAL_COLUMNS];
const SELECT = `SELECT ${COLUMNS.map((c) => `c.${c}`).join(', ')} FROM companies c`;
// Rows are read as arrays and built by one compiled object literal: far cheaper per row than
// the driver's objects (as company-row.ts does for search pages).
const buildRow = new Function('v', `return { ${COLUMNS.map((c, i) => `${c}: v[${i}]`).join(', ')} };`) as (v: unknown[]) => StoredRow;

export async function importCompanies(
  db: Db,
  records: ImportRecords,
  plan: ImportPlanner,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  const batchSize = opts.batchSize ?? IMPORT_BATCH_SIZE;
  const atomic = opts.atomic ?? true;
  const readBatch = db.prepare(`${SELECT} WHERE c.org_nr IN (SELECT value FROM json_each(?))`).raw(true);
  const appendEvent = db.prepare('INSERT INTO outbox (account_id, event, subject, created_at) VALUES (NULL, ?, ?, ?)');
  const writer = new CompanyWriter(db);
  const result: ImportResult = { created: 0, updated: 0, unchanged: 0, events: {} };
  const seen = new RowidSet();
  const counts = new CountTally();
  const now = new Date().toISOString();
  const highestRow = db.prepare('SELECT coalesce(max(rowid), 0) FROM companies').pluck();
  let nextRow = (highestRow.get() as number) + 1;
  // Read again under the write lock: another import (another source, another process) may have
  // added rows since, and new rows go on after the highest (two imports at once failed on
  // `UNIQUE constraint failed: companies.rowid`).
  const lockedRows = () => {
    const highest = highestRow.get() as number;
    // A first load into an empty register looks no key up (loadedRows): should another import
    // (the other source's first load, started at the same time) have written rows since this
    // one's last commit, keys are looked up from here on, in the org nr index built now under
    // this lock. Both loads otherwise wrote the companies they share twice, and each failed at
    // its end building the unique index.
    if (loadedRows && highest !== nextRow - 1) {
      db.exec('CREATE UNIQUE INDEX IF NOT EXISTS companies_org_nr ON companies (org_nr)');
      loadedRows = null;
    }
    nextRow = Math.max(nextRow, highest + 1);
  };
  const restorePragmas = importPragmas(db);
  // Set before anything reads the table: the first-load check below reads all of it when no row
  // lists the source (SCB's first load onto a filled register), and through the 1 GB memory map
  // that scan alone took the importer to 855 MB.
  const note = new FirstLoadNote(db, opts.firstLoadOf);
  let quiet = note.listsNone();
  // A first load builds its side indexes at its end from a snapshot of the rows, copied over the
  // register's: what another import wrote after the snapshot was lost from them (two first loads
  // at once: half the names missing from the full-text index). So a first load runs alone on
  // the file: it holds this lock, and every other import waits while a first load holds it.
  const firstLoadLock = db.memory || !db.name ? null : lockPath(resolve(db.name), 'first-load');
  const told = new Set<ImportWait>();
  const toldWaiting = (why: ImportWait = 'first-load') => {
    if (!told.has(why)) opts.onWait?.(why);
    told.add(why);
  };
  const beginImmediate = () => beginImmediateWaiting(db, () => toldWaiting('write-lock'));
  let releaseFirstLoad: (() => void) | null = null;
  if (quiet && !atomic && firstLoadLock) {
    releaseFirstLoad = await holdFileLock(firstLoadLock, { onWait: () => toldWaiting() });
    // Another import may have run meanwhile (this source's first load, say).
    quiet = note.listsNone();
    nextRow = (highestRow.get() as number) + 1;
    if (!quiet) {
      releaseFirstLoad();
      releaseFirstLoad = null;
    }
  }
  const firstLoadElsewhere = async () => {
    while (firstLoadLock && !releaseFirstLoad && isLockHeldElsewhere(firstLoadLock)) {
      toldWaiting();
      await sleep(FIRST_LOAD_POLL_MS);
    }
  };
  if (quiet && atomic) {
    // All or nothing, a load runs as any import (events, fingerprints, vanished rows) unless it
    // lists none of the source's rows: decided once another process's first load of it is done.
    await firstLoadElsewhere();
    quiet = note.listsNone();
  }
  // A source's first import writes most rows of the register: the secondary indexes are dropped
  // and built once at the end, far cheaper than maintaining them row by row.
  const firstLoad = quiet && !atomic;
  if (firstLoad) note.begin();
  // A first load into an empty register: the rows it writes, by org nr, so that a key the file
  // repeats finds the row an earlier line wrote without the org nr index.
  let loadedRows = firstLoad && nextRow === 1 ? new RowidsByNumber() : null;
  // What a first load builds at its end (first-load-indexes.ts); every other index follows each write.
  const dropped = firstLoad ? firstLoadIndexes({ empty: loadedRows !== null, writes: opts.firstLoadWrites }) : null;
  // With those an earlier load emptied and did not build again (side-index-repair.ts).
  const rebuilt = dropped && { ...dropped, side: withPending(db, dropped.side) };
  if (!firstLoad) await repairSideIndexes(db, firstLoadLock, () => toldWaiting());
  const sideWritten: SideIndexes = rebuilt ? { sni: !rebuilt.side.sni, fts: !rebuilt.side.fts, geo: !rebuilt.side.geo } : ALL_SIDE_INDEXES;
  if (rebuilt) {
    try {
      db.pragma('synchronous = OFF');
      dropFirstLoadIndexes(db, rebuilt, loadedRows !== null);
      // The org nr stays indexed: each batch still looks its keys up (a file may repeat one).
      // Into an empty register every row is this load's, found by its number in loadedRows: that
      // index too is built at the end (Bolagsverket's first load: 57 → 47 s at full size).
      if (!loadedRows) db.exec('CREATE UNIQUE INDEX IF NOT EXISTS companies_org_nr ON companies (org_nr)');
    } catch (e) {
      releaseFirstLoad?.();
      throw e;
    }
  }

  /** Writes a planned company; returns the row as now stored (its internals apart). */
  const write = (planned: PlannedWrite, existing: StoredRow | undefined): { row: CompanyRow; internal: CompanyInternals } => {
    const internal = planned.company.internal ?? (existing ? internalsOf(existing) : NO_INTERNALS);
    let row: CompanyRow;
    if (existing) {
      row = writer.replace(planned.company, existing.rowid, internal, sideWritten, existing);
      counts.add(existing, -1);
      result.updated++;
    } else {
      row = writer.insert(planned.company, nextRow++, internal, sideWritten);
      loadedRows?.set(Number(row.org_nr), row.rowid);
      result.created++;
    }
    counts.add(row);
    if (!quiet) {
      for (const e of planned.events) {
        appendEvent.run(JSON.stringify(e.event), JSON.stringify(e.subject), now);
        result.events[e.event.type as keyof ImportResult['events']] = (result.events[e.event.type as keyof ImportResult['events']] ?? 0) + 1;
      }
    }
    return { row, internal };
  };

  const fingerprintColumn = opts.fingerprints;
  // A first load reads no fingerprints and gets the index with the others at its end.
  if (fingerprintColumn && !firstLoad) ensureFingerprintsIndex(db);
  const setFingerprint = fingerprintColumn ? db.prepare(`UPDATE companies SET ${fingerprintColumn} = ? WHERE rowid = ?`) : null;
  // Unchanged lines are settled against the fingerprints of every listed row, read here at once.
  const listed = fingerprintColumn && !quiet ? readListed(db, fingerprintColumn) : null;
  const settleUnchanged = (rowid: number) => {
    seen.add(rowid);
    result.unchanged++;
  };

  const readWritten = db.prepare(`${SELECT} WHERE c.rowid IN (SELECT value FROM json_each(?))`).raw(true);
  /** The stored rows of these keys, by org nr. */
  const readRows = (keys: readonly (string | null)[]): Map<string, StoredRow> => {
    const stored = new Map<string, StoredRow>();
    let found: unknown[][];
    const loaded = loadedRows;
    if (loaded) {
      const rowids = keys.map((k) => (k === null ? 0 : loaded.get(Number(k)))).filter((r) => r > 0);
      found = rowids.length === 0 ? [] : (readWritten.all(JSON.stringify(rowids)) as unknown[][]);
    } else {
      found = readBatch.all(JSON.stringify(keys.filter((k) => k !== null))) as unknown[][];
    }
    for (const values of found) {
      const row = buildRow(values);
      stored.set(row.org_nr, row);
    }
    return stored;
  };

  const matchesStored = opts.matchesStored;
  const readRecords = storedRecordReader(db);
  /**
   * The records that are the stored company exactly (matchesStored), settled here unparsed; the
   * others' data made in the file's order, before any of them is planned. A line that names its
   * row (ImportRecord.row) is compared with that row, read by rowid: one B-tree instead of two
   * (an export re-imported in its own order reads the table in order, too).
   */
  const probe = new MatchProbe();
  const withoutMatching = (batch: ImportRecord[]): ImportRecord[] => {
    if (!matchesStored || !probe.shouldTry()) return batch;
    const heads = matchHeads(batch);
    const records = readRecords(batch, heads);
    return settleMatching(batch, heads, records, (row) => rowToCompany(row, { expand: true }), matchesStored, settleUnchanged, probe);
  };

  const applyBatch = (all: ImportRecord[]): void => {
    const batch = withoutMatching(all);
    if (batch.length === 0) return;
    const keys = batch.map((r) => normalizeOrgNr(String(r.data.org_nr ?? '')));
    const stored = readRows(keys);
    // A key repeated inside the batch sees what the earlier record made of it.
    const planned = new Map<string, StoredCompany>();
    const repeated = repeatedKeys(keys);
    batch.forEach((record, i) => {
      const key = keys[i];
      const row = key === null ? undefined : stored.get(key);
      if (opts.firstLineStands && row && seen.has(row.rowid)) {
        result.unchanged++;
        result.repeated = (result.repeated ?? 0) + 1;
        return;
      }
      const existing = (key !== null && planned.get(key)) || (row ? toStoredCompany(row) : null);
      const result1 = plan(record, existing, existing ? existing.id : companyIdFromRow(nextRow), now, quiet);
      if (row) seen.add(row.rowid);
      if (!result1) {
        result.unchanged++;
        // Same data from a new line (or a first fingerprint): remembered, so it is skipped next time.
        if (row && setFingerprint && record.fingerprint !== undefined && row[fingerprintColumn!] !== record.fingerprint) {
          setFingerprint.run(record.fingerprint, row.rowid);
          listed?.set(key!, record.fingerprint);
        }
        return;
      }
      if (fingerprintColumn && record.fingerprint !== undefined) {
        result1.company.internal = { ...(result1.company.internal ?? (row ? internalsOf(row) : NO_INTERNALS)), [fingerprintColumn]: record.fingerprint };
        if (key !== null) listed?.set(key, record.fingerprint);
      }
      const written = write(result1, row);
      seen.add(written.row.rowid);
      if (key !== null && repeated.has(key)) {
        const after = { ...written.row, ...written.internal } as StoredRow;
        planned.set(key, { ...result1.company, internal: internalsOf(after) });
        // A later record of the same key compares with (and counts off) what this one wrote.
        stored.set(key, after);
      }
    });
  };

  const batches = inBatches(records, batchSize);
  // Every serve process registers its incarnation while it runs (src/app/incarnation.ts).
  const serverRunning = db.prepare('SELECT EXISTS (SELECT 1 FROM incarnations)').pluck();
  let serverRuns = serverRunning.get() === 1;
  let finished = false; // reached its end: a first load it finishes is no longer unfinished
  let read = 0;
  try {
    if (atomic) {
      await firstLoadElsewhere();
      beginImmediate();
      lockedRows();
      opts.onLocked?.();
    }
    // Batch by batch, the batches of up to IMPORT_COMMIT_MS share a transaction: a page that
    // several of them change is written to the WAL once, and the counts are added once; a server
    // writing meanwhile waits no longer than that for the lock (IMPORT_COMMIT_ALONE_MS when none runs).
    let began = 0;
    // IMMEDIATE: the batch reads, then writes; taking the write lock first means a server
    // writing meanwhile makes it wait (busy_timeout) instead of failing the upgrade.
    const begin = () => {
      if (!atomic && !db.inTransaction) {
        beginImmediate();
        lockedRows();
        // Read in the transaction: a server that registered while every line was unchanged (no
        // transaction open) gets short windows from this one on.
        serverRuns = serverRunning.get() === 1;
        began = performance.now();
      }
    };
    const commitIfDue = (): boolean => {
      if (!atomic && db.inTransaction && performance.now() - began >= (serverRuns ? IMPORT_COMMIT_MS : IMPORT_COMMIT_ALONE_MS)) {
        counts.flush(db);
        db.exec('COMMIT');
        return true;
      }
      return false;
    };
    for await (const all of batches) {
      if (isSettledLines(all)) result.unchanged += all.length;
      const batch = listed ? listed.withoutUnchanged(all, settleUnchanged) : recordsOf(all);
      if (batch.length > 0) {
        if (!db.inTransaction) await firstLoadElsewhere();
        begin();
        applyBatch(batch);
      }
      // Also after a batch settled by its fingerprints alone: a window a change opened is not
      // held through the unchanged lines after it (a server's writes waited to the next change).
      // The lock left free for a moment while a server runs on this file: it tries every few
      // milliseconds (write-transaction.ts), and would otherwise find the next transaction
      // begun at once. An import alone goes on at once.
      if (commitIfDue()) {
        boundWal(db);
        serverRuns = serverRunning.get() === 1;
        if (serverRuns) await sleep(IMPORT_YIELD_MS);
      }
      read += all.length;
      opts.onBatch?.(read);
    }
    counts.flush(db);
    if (!atomic && db.inTransaction) db.exec('COMMIT');
    // Its 48 MB (2.5 million rows) given back before the index builds' memory comes beside it.
    loadedRows = null;
    // A source's first import has nothing it listed before.
    if (opts.vanished && !quiet && (opts.vanished.enabled?.() ?? true)) {
      const { sourceBit, plan: planVanished } = opts.vanished;
      result.vanished = 0;
      const byRowid = db.prepare(`${SELECT} WHERE c.rowid = ?`).raw(true);
      const gone = listed ? listed.vanished(seen, opts.vanished.limit, opts.vanished.spare) : { pages: listedRowPages(db, sourceBit), withheld: 0 };
      if (gone.withheld > 0) result.vanishedWithheld = gone.withheld;
      for (const ids of gone.pages) {
        const markGone = () => {
          for (const id of ids) {
            if (seen.has(id)) continue;
            const row = buildRow(byRowid.get(id) as unknown[]);
            const planned = planVanished(toStoredCompany(row), now);
            if (!planned) continue;
            write(planned, row);
            result.updated--;
            result.vanished = (result.vanished ?? 0) + 1;
          }
          counts.flush(db);
        };
        if (atomic) markGone();
        else db.transaction(markGone).immediate();
      }
    }
    if (atomic) db.exec('COMMIT');
    finished = true;
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  } finally {
    try {
      if (rebuilt) {
        await buildCompanyIndexes(db, { fingerprints: fingerprintColumn !== undefined, side: rebuilt.side, onIndex: opts.onIndexes });
        clearSideIndexesPending(db);
        db.pragma('analysis_limit = 2000');
        db.exec('ANALYZE');
        db.pragma('synchronous = NORMAL');
        db.pragma('wal_checkpoint(TRUNCATE)');
      }
      if (finished && quiet) note.end(); // indexes and all (or all at once, --strict)
      restorePragmas();
    } finally {
      // Freed even when the builds fail: the process (a server, say) may live on.
      releaseFirstLoad?.();
    }
  }
  return result;
}
