// The import engine over PostgreSQL, with the SQLite engine's semantics (sqlite/company-import.ts):
// records are read in batches; each batch is compared with what is stored in one indexed read by
// org_nr (a line whose fingerprint is unchanged settled from the covering index alone), and only
// what changed is written, in set-based statements, with its events (the outbox) and the moves
// of company_counts in the same transaction. Either one transaction for the whole import (all or
// nothing) or one per batch, so that a running server's writes interleave.
import type pg from 'pg';
import { companyIdFromRow } from '../../core/company-id.js';
import { normalizeOrgNr } from '../../core/orgnr.js';
import { beginFirstLoad, endFirstLoad, isFirstLoad } from './first-load-note.js';
import {
  type CompanyInternals,
  type ImportOptions,
  type ImportPlanner,
  type ImportBatch,
  type ImportRecord,
  type ImportRecords,
  IMPORT_BATCH_SIZE,
  IMPORT_COMMIT_MS,
  inBatches,
  internalsOf,
  isSettledLines,
  repeatedKeys,
  type ImportResult,
  NO_INTERNALS,
  type PlannedWrite,
  recordsOf,
  type StoredCompany,
} from '../import-types.js';
import { INTERNAL_COLUMNS, toStoredCompany } from '../sqlite/company-row.js';
import { RowidSet } from '../sqlite/rowid-set.js';
import { RowidsByNumber } from '../sqlite/rowids-by-number.js';
import { CountChanges } from './company-counts.js';
import { MatchProbe, matchHeads, settleMatching } from '../match-probe.js';
import { COMPANY_INDEXES, createIndexesInTx } from './company-migrations.js';
import { BUILD_MEMORY, buildIndexes } from './company-seeder.js';
import { type CompanyRow, companyToPgRow, type PgCompanyRow, readColumns, rowToCompany } from './company-row.js';
import type { PgDb } from './database.js';
import { BatchWrites } from './batch-writes.js';
import { copyRow, type EventsTable, flush, publishStagedEvents, updateJson } from './import-writes.js';
import { readListed } from './read-listed.js';
import { readStoredRecords } from './stored-records.js';

/** Serialises imports (new rows take the next row numbers), per schema. */
export const IMPORT_LOCK = 'pg_advisory_xact_lock(7311, hashtext(current_schema()))';

type StoredRow = CompanyRow & CompanyInternals;
/** Records planned between two turns of the event loop while a COPY is on its way. */
const YIELD_EVERY = 256;
const SELECT = `SELECT ${readColumns(true)}, ${INTERNAL_COLUMNS.map((c) => `c.${c}`).join(', ')} FROM companies c`;

export async function importCompanies(
  db: PgDb,
  records: ImportRecords,
  plan: ImportPlanner,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  const batchSize = opts.batchSize ?? IMPORT_BATCH_SIZE;
  const atomic = opts.atomic ?? true;
  const eventsTable: EventsTable = atomic ? 'import_events' : 'outbox';
  /** Whether an atomic import staged any event, to publish before its commit. */
  let staged = false;
  const fingerprintColumn = opts.fingerprints;
  const result: ImportResult = { created: 0, updated: 0, unchanged: 0, events: {} };
  const seen = new RowidSet();
  const now = new Date().toISOString();

  // Each batch looks its keys up by org nr: an empty register (never bulk loaded) lacks even that.
  await db.tx((client) => createIndexesInTx(client, [KEY_INDEX]));
  const quiet = await isFirstLoad(db, opts.firstLoadOf);
  if (quiet && !atomic) await beginFirstLoad(db, opts.firstLoadOf!);
  // A source's first load writes most rows of the register: the secondary indexes are dropped and
  // built once at the end (as the seeder does), far cheaper than maintaining twenty of them row by
  // row. Atomic: inside the import's transaction, so a failure or a crash rolls the drop back with
  // the rows. Batch by batch: dropped before the first batch, built after the last (also when one
  // fails); should the process die meanwhile, the next import that is not a first load builds
  // what is missing before it starts (below), and so does the end of the next first load.
  const bulk = quiet;
  if (!bulk) await db.tx((client) => createIndexesInTx(client, COMPANY_INDEXES));
  const listed = fingerprintColumn && !quiet ? await readListed(db, fingerprintColumn) : null;
  // A first load into an empty register: a key is new unless this load wrote it before (its rows
  // by org nr, as on SQLite), so a batch reads nothing from the register and its COPY runs on the
  // server while the next batch is planned here, on the other core (before, each waited for the
  // other: a full-size first load's importer sat idle 27 of its 83 s of rows).
  let fresh = bulk && (await db.query<{ n: number }>('SELECT coalesce(max(rowid), 0) AS n FROM companies')).rows[0].n === 0 ? new RowidsByNumber() : null;
  let nextRow = 1;
  /** The batches' writes on their way, and a weekly batch's held until the next batch's read. */
  const writes = new BatchWrites();
  /** At the start of each transaction of a first load into an empty register: the lock, and the rows it numbers from. */
  const beginWindow = async (client: pg.ClientBase): Promise<void> => {
    if (!fresh) return;
    await client.query(`SELECT ${IMPORT_LOCK}`);
    const top = (await client.query<{ n: number }>('SELECT coalesce(max(rowid), 0) AS n FROM companies')).rows[0].n;
    // Another import wrote rows between two of this one's transactions: their keys are not in
    // `fresh`, so from here on each batch reads the register as any other import does.
    if (top !== nextRow - 1) fresh = null;
  };
  /** Whether this transaction holds IMPORT_LOCK, and nextRow is read under it. */
  let lockedInTx = false;
  /** Whether ImportOptions.onLocked was called. */
  let signalledLock = false;
  const settleUnchanged = (rowid: number) => {
    seen.add(rowid);
    result.unchanged++;
  };

  /**
   * The records that are the stored company exactly (ImportOptions.matchesStored), settled here
   * unparsed from a read of the record's columns (no lock: nothing is written for them, as for an
   * unchanged fingerprint); the others' data made in the file's order, before any is planned.
   */
  const probe = new MatchProbe();
  const withoutMatching = async (client: pg.ClientBase, batch: ImportRecord[], matches: NonNullable<ImportOptions['matchesStored']>): Promise<ImportRecord[]> => {
    if (!probe.shouldTry()) return batch;
    const heads = matchHeads(batch);
    const records = await readStoredRecords(client, heads);
    return settleMatching(batch, heads, records, (row) => rowToCompany(row, { expand: true }), matches, settleUnchanged, probe);
  };

  /** One batch, in the caller's transaction: compared, planned, written. */
  const applyBatch = async (client: pg.ClientBase, all: ImportBatch, counts: CountChanges): Promise<void> => {
    // A first load has no fingerprints of this source to compare with. Lines unchanged since the
    // last import are settled from the fingerprints read at the start (their records need not
    // even be parsed: ImportRecord.key), before the lock: a batch of them writes nothing.
    if (isSettledLines(all)) {
      result.unchanged += all.length;
      return;
    }
    let batch = listed ? listed.withoutUnchanged(all, settleUnchanged) : recordsOf(all);
    if (batch.length === 0) return;
    if (!fresh && !lockedInTx) {
      // Once a transaction: the lock is held to its end, and no other import numbers rows meanwhile.
      writes.sendHeld();
      await writes.done();
      await client.query(`SELECT ${IMPORT_LOCK}`);
      nextRow = (await client.query<{ n: number }>('SELECT coalesce(max(rowid), 0) + 1 AS n FROM companies')).rows[0].n;
      lockedInTx = true;
      // Atomic: the lock is the import's to its end, and what is committed changes only when it does.
      if (atomic && !signalledLock) {
        signalledLock = true;
        opts.onLocked?.();
      }
    }
    const setFingerprints: [number, number][] = [];
    if (opts.matchesStored) {
      // Compared with the register as the last batch left it.
      writes.sendHeld();
      await writes.done();
      batch = await withoutMatching(client, batch, opts.matchesStored);
    }
    const batchKeys = batch.map((r) => normalizeOrgNr(String(r.data.org_nr ?? '')));
    if (batch.length === 0) return;

    const loaded = fresh;
    const lookup = [...new Set(batchKeys.filter((k): k is string => k !== null && (!loaded || loaded.get(Number(k)) !== 0)))];
    const stored = new Map<string, StoredRow>();
    if (lookup.length > 0) {
      writes.sendIfWriting(lookup);
      // Every write this read must see is done: all but the held ones, and those too when it
      // reads one of their org nrs.
      await writes.done();
      // FOR UPDATE: a concurrent writer of the same companies waits for this batch.
      const reading = client.query<StoredRow>(`${SELECT} WHERE c.org_nr = ANY($1::text[]) FOR UPDATE`, [lookup]);
      // Queued behind the read, written while this batch is planned.
      writes.sendHeld();
      const { rows } = await reading;
      for (const row of rows) stored.set(row.org_nr, row);
    } else {
      writes.sendHeld();
    }
    // New rows as their COPY lines and changed ones as JSON, made as each is planned: a batch's
    // row objects, kept to its end, outlived the young generation's collections and were copied
    // and promoted.
    const inserts = new Map<number, string>();
    const updates = new Map<number, string>();
    const events: [string, string][] = [];

    /** The row written and its internals, kept apart (merged only where a whole row is needed). */
    const write = (planned: PlannedWrite, existing: StoredRow | undefined): { row: PgCompanyRow; internal: CompanyInternals } => {
      const internal = internalsOf(planned.company.internal ?? (existing ? internalsOf(existing) : NO_INTERNALS));
      const rowid = existing ? existing.rowid : nextRow++;
      const row = companyToPgRow(planned.company, rowid, internal.description);
      if (existing) {
        counts.add(existing, -1);
        // A row created earlier in this batch is still to be inserted.
        if (inserts.has(rowid)) inserts.set(rowid, copyRow(row, internal));
        else updates.set(rowid, updateJson(row, internal));
        result.updated++;
      } else {
        inserts.set(rowid, copyRow(row, internal));
        fresh?.set(Number(row.org_nr), rowid);
        result.created++;
      }
      counts.add(row, 1);
      if (!quiet) {
        for (const e of planned.events) {
          events.push([JSON.stringify(e.event), JSON.stringify(e.subject)]);
          const type = e.event.type as keyof ImportResult['events'];
          result.events[type] = (result.events[type] ?? 0) + 1;
        }
      }
      return { row, internal };
    };

    const planned = new Map<string, StoredCompany>();
    const repeated = repeatedKeys(batchKeys);
    // The org nrs this batch writes: the next batch's read of one waits for these writes.
    const keys = new Set<string>();
    for (let i = 0; i < batch.length; i++) {
      // The last batch's COPY reaches the server only as the event loop writes it to the socket:
      // planning a whole batch without a turn left the server waiting for its rows.
      if (writes.inFlight && i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
      const record = batch[i];
      const key = batchKeys[i];
      const row = key === null ? undefined : stored.get(key);
      if (opts.firstLineStands && row && seen.has(row.rowid)) {
        [result.unchanged, result.repeated] = [result.unchanged + 1, (result.repeated ?? 0) + 1];
        continue;
      }
      const existing = (key !== null && planned.get(key)) || (row ? toStoredCompany(row) : null);
      const next = plan(record, existing, existing ? existing.id : companyIdFromRow(nextRow), now, quiet);
      if (row) seen.add(row.rowid);
      if (!next) {
        result.unchanged++;
        // Same data from a new line (or a first fingerprint): remembered, so it is skipped next time.
        if (row && fingerprintColumn && record.fingerprint !== undefined && row[fingerprintColumn] !== record.fingerprint) {
          setFingerprints.push([row.rowid, record.fingerprint]);
          listed?.set(key!, record.fingerprint);
          keys.add(key!);
        }
        continue;
      }
      if (fingerprintColumn && record.fingerprint !== undefined) {
        next.company.internal = { ...(next.company.internal ?? (row ? internalsOf(row) : NO_INTERNALS)), [fingerprintColumn]: record.fingerprint };
        if (key !== null) listed?.set(key, record.fingerprint);
      }
      const written = write(next, row);
      seen.add(written.row.rowid);
      if (key !== null && !fresh) keys.add(key);
      if (key !== null && repeated.has(key)) {
        planned.set(key, { ...next.company, internal: written.internal });
        // A later record of the same key compares with (and counts off) what this one wrote.
        stored.set(key, { ...written.row, ...written.internal });
      }
    }
    const send = async (): Promise<void> => {
      staged ||= events.length > 0;
      await flush(client, inserts, updates, events, now, eventsTable);
      if (setFingerprints.length > 0) {
        await client.query(
          `UPDATE companies c SET ${fingerprintColumn} = v.hash FROM unnest($1::int[], $2::bigint[]) AS v(rowid, hash) WHERE c.rowid = v.rowid`,
          [setFingerprints.map((f) => f[0]), setFingerprints.map((f) => f[1])],
        );
      }
    };
    // A first load into an empty register reads nothing before its next COPY: sent at once, to run
    // while the next batch is planned. Else held, sent behind the next batch's read (or before
    // this connection's next read that must see it, or the commit).
    if (fresh || opts.matchesStored) await writes.sendAfterDone(send);
    else writes.hold(send, keys);
  };

  /** The rows this source listed before and the file did not: planned as gone, page by page. */
  const markVanished = async (client: pg.ClientBase, ids: number[]): Promise<void> => {
    const { sourceBit: _bit, plan: planVanished } = opts.vanished!;
    await client.query(`SELECT ${IMPORT_LOCK}`);
    const { rows } = await client.query<StoredRow>(`${SELECT} WHERE c.rowid = ANY($1::int[]) ORDER BY c.rowid FOR UPDATE`, [ids]);
    const inserts = new Map<number, string>();
    const updates = new Map<number, string>();
    const events: [string, string][] = [];
    const counts = new CountChanges();
    for (const row of rows) {
      const planned = planVanished(toStoredCompany(row), now);
      if (!planned) continue;
      const internal = internalsOf(planned.company.internal ?? internalsOf(row));
      const next = companyToPgRow(planned.company, row.rowid, internal.description);
      counts.add(row, -1);
      counts.add(next, 1);
      updates.set(row.rowid, updateJson(next, internal));
      result.vanished = (result.vanished ?? 0) + 1;
      for (const e of planned.events) {
        events.push([JSON.stringify(e.event), JSON.stringify(e.subject)]);
        const type = e.event.type as keyof ImportResult['events'];
        result.events[type] = (result.events[type] ?? 0) + 1;
      }
    }
    staged ||= events.length > 0;
    await flush(client, inserts, updates, events, now, eventsTable);
    await counts.write(client);
  };

  const runAll = async (inTx: <T>(fn: (client: pg.ClientBase) => Promise<T>) => Promise<T>): Promise<void> => {
    // Batch by batch, the batches of IMPORT_COMMIT_MS share a transaction (one commit, one WAL
    // flush, for several); atomic, inTx runs them all in the import's one transaction anyway.
    const batches = inBatches(records, batchSize)[Symbol.asyncIterator]();
    let read = 0;
    let done = false;
    try {
      while (!done) {
        await inTx(async (client) => {
          lockedInTx = false;
          const began = performance.now();
          // The moves of company_counts, written once for the transaction's batches.
          const counts = new CountChanges();
          // Nothing of this transaction may run after its ROLLBACK.
          await writes.guard(async () => {
            await beginWindow(client);
            do {
              const next = await batches.next();
              if (next.done) {
                done = true;
                break;
              }
              await applyBatch(client, next.value, counts);
              read += next.value.length;
              opts.onBatch?.(read);
            } while (performance.now() - began < IMPORT_COMMIT_MS);
            writes.sendHeld();
            await writes.done();
          });
          lockedInTx = false;
          await counts.write(client);
        });
      }
    } finally {
      // Stopped by an error: the source is closed (a file's reading thread stopped).
      if (!done) await batches.return?.(undefined);
    }
    // A source's first import has nothing it listed before.
    if (opts.vanished && !quiet && (opts.vanished.enabled?.() ?? true)) {
      result.vanished = 0;
      if (listed) {
        const gone = listed.vanished(seen, opts.vanished.limit, opts.vanished.spare);
        if (gone.withheld > 0) result.vanishedWithheld = gone.withheld;
        for (const ids of gone.pages) await inTx((client) => markVanished(client, ids));
        return;
      }
      const where = `(sources & ${Number(opts.vanished.sourceBit)}) != 0`;
      let after = 0;
      for (;;) {
        const page = await inTx(async (client) =>
          (await client.query<{ rowid: number }>(`SELECT rowid FROM companies WHERE rowid > $1 AND ${where} ORDER BY rowid LIMIT 10000`, [after])).rows.map((r) => r.rowid),
        );
        if (page.length === 0) break;
        after = page[page.length - 1];
        const gone = page.filter((id) => !seen.has(id));
        if (gone.length > 0) await inTx((client) => markVanished(client, gone));
      }
    }
  };

  if (atomic) {
    await db.tx(async (client) => {
      if (bulk) await dropSecondaryIndexes(client);
      await runAll((fn) => fn(client));
      if (bulk) {
        await client.query(`SET LOCAL maintenance_work_mem = '${BUILD_MEMORY}'`);
        opts.onIndexes?.(0, COMPANY_INDEXES.length);
        for (const [i, { sql }] of COMPANY_INDEXES.entries()) {
          await client.query(sql);
          opts.onIndexes?.(i + 1, COMPANY_INDEXES.length);
        }
      }
      // Last, so that the outbox's lock is held from here to the commit only.
      if (staged) await publishStagedEvents(client);
    });
  } else if (bulk) {
    await db.tx(dropSecondaryIndexes);
    try {
      await runAll((fn) => db.tx(fn));
    } finally {
      // Two connections at once (B-trees beside the GIN and GiST builds), as the seeder builds them.
      const client = await db.pool.connect();
      try {
        await buildIndexes(db, client, opts.onIndexes);
      } finally {
        client.release();
      }
    }
  } else {
    await runAll((fn) => db.tx(fn));
  }
  // A source's first load changes most of the register (the planner's statistics follow), and has finished.
  if (quiet) await db.query('ANALYZE companies').then(() => endFirstLoad(db, opts.firstLoadOf!));
  return result;
}

/** The index each batch needs (lookups by org nr; also the uniqueness of the key). */
const KEY_INDEX = COMPANY_INDEXES.find((i) => i.name === 'companies_org_nr')!;

async function dropSecondaryIndexes(client: pg.ClientBase): Promise<void> {
  await client.query(`SELECT ${IMPORT_LOCK}`);
  for (const { name } of COMPANY_INDEXES) if (name !== KEY_INDEX.name) await client.query(`DROP INDEX IF EXISTS ${name}`);
}
