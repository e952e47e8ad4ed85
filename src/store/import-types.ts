import type { Company } from '../core/company.js';
import type { BolagEvent } from '../core/events.js';
import type { EventType } from '../core/values.js';

/** One record of an import file: the export's shape (`id` optional for new companies), with its line. */
export interface ImportRecord {
  line: number;
  /** `org_nr` is the key (any spelling normalizeOrgNr accepts); the rest is the planner's. */
  data: Record<string, unknown>;
  /**
   * A hash of the source's line, with ImportOptions.fingerprints: a record whose fingerprint
   * equals the stored one is unchanged without reading or planning the company.
   */
  fingerprint?: number;
  /**
   * The normalised org nr, when the reader knows it without making `data` (which may then be
   * made only when read): with a fingerprint, an unchanged line is settled from these two alone.
   * Our JSONL's is its head's (the first `org_nr` of the line), used only to find the stored
   * record a line may equal; a line that repeats `org_nr` is planned by what `data` says.
   */
  key?: string;
  /**
   * The line as read, when the reader passes it on unparsed (with `key`): ImportOptions.matchesStored
   * may then settle it against the stored company without making `data`.
   */
  text?: string;
  /**
   * The register row the line names (our JSONL's id), with `key` and `text`: where the store looks
   * first for the record the line may equal (one lookup by row, none by org nr). Only a hint: a
   * line is settled only when it equals the stored record, id and org nr included.
   */
  row?: number;
}

/**
 * A batch of lines read on another thread (the open-data files'): each line's org nr and
 * fingerprint as numbers, its record made only when it is asked for. A weekly update settles
 * most lines by these numbers alone (ListedFingerprints), without a record, a string or an object
 * for them on the importing thread.
 */
export interface KeyedLines {
  readonly keyed: true;
  readonly length: number;
  /** Line i's org nr as a number, NaN when none is known without its record (never settled unread). */
  readonly keys: Float64Array;
  /** Line i's fingerprint (ImportRecord.fingerprint), NaN for none. */
  readonly prints: Float64Array;
  /** 1 where the batch holds line i's org nr more than once: such lines are planned one by one. */
  readonly repeated: Uint8Array;
  record(i: number): ImportRecord;
  /** Called once the import has asked for every record it needs: the lines' memory may be used again. */
  release(): void;
}

/**
 * Lines the reader found unchanged itself: our JSONL compared on a thread of its own with the
 * register as it was once the import held the write lock (ImportOptions.onLocked). The import
 * counts them, nothing more.
 */
export interface SettledLines {
  readonly settled: true;
  readonly length: number;
}

/** What an import takes at a time: records, lines whose records are made when needed, or lines already settled. */
export type ImportBatch = ImportRecord[] | KeyedLines | SettledLines;

export function isKeyedLines(item: unknown): item is KeyedLines {
  return (item as KeyedLines | null)?.keyed === true;
}

export function isSettledLines(item: unknown): item is SettledLines {
  return (item as SettledLines | null)?.settled === true;
}

/** The batch's records, every one made (none for settled lines). */
export function recordsOf(batch: ImportBatch): ImportRecord[] {
  if (isSettledLines(batch)) return [];
  if (!isKeyedLines(batch)) return batch;
  const out = new Array<ImportRecord>(batch.length);
  for (let i = 0; i < batch.length; i++) out[i] = batch.record(i);
  batch.release();
  return out;
}

/**
 * The records of an import. An asynchronous source may hand them over in arrays (a chunk of a
 * file at a time): one await per array rather than per record; or as KeyedLines, each taken as
 * one batch.
 */
export type ImportRecords = Iterable<ImportRecord> | AsyncIterable<ImportRecord | readonly ImportRecord[] | KeyedLines | SettledLines>;

/**
 * Records compared with the register per read, and per transaction unless atomic. 2,000: the
 * objects of a batch live across several young-generation collections at 5,000 and are promoted,
 * so the old generation grows by tens of megabytes of garbage between full collections (SCB's
 * first load peaked at 366 MB); at 2,000 the CPU time is the same and the peak ~40 MB lower.
 */
export const IMPORT_BATCH_SIZE = 2_000;

/** What an import waits for (ImportOptions.onWait). */
export type ImportWait = 'first-load' | 'write-lock' | 'same-source';

/**
 * Batch by batch (not atomic): the batches of this many milliseconds share a transaction. Fewer
 * commits (each a WAL flush, on SQLite the pages it changed written once), while a server writing
 * meanwhile waits about as long as for one batch.
 */
export const IMPORT_COMMIT_MS = 250;

/**
 * The same on SQLite while no server runs on the database (none registered in `incarnations`):
 * nobody waits for the lock, and a page that the batches of the window change is written once for
 * all of them (a full-size Bolagsverket week 2: 29–33 s at 250 ms, 23.5–24 s at 2 s, the same at
 * 5 s). A server that starts meanwhile waits for one window at most (its busy timeout is 5 s) and
 * the windows are short again from the next one on. On PostgreSQL 2 s windows made no difference
 * (docs/open-data-import.md), and it keeps IMPORT_COMMIT_MS.
 */
export const IMPORT_COMMIT_ALONE_MS = 2_000;

/** The keys that occur more than once (a file may repeat an org nr; a batch rarely does). */
export function repeatedKeys(keys: readonly (string | null)[]): Set<string> {
  const once = new Set<string>();
  const more = new Set<string>();
  for (const k of keys) {
    if (k === null) continue;
    if (once.has(k)) more.add(k);
    else once.add(k);
  }
  return more;
}

/** The records in batches of `size` (the last one shorter); KeyedLines and SettledLines as they come. */
/** How long an import runs between two turns of the event loop, at most (give or take a batch). */
const TURN_EVERY_MS = 100;

export async function* inBatches(records: ImportRecords, size: number): AsyncGenerator<ImportBatch> {
  let batch: ImportRecord[] = [];
  let turned = performance.now();
  for await (const item of records as AsyncIterable<ImportRecord | readonly ImportRecord[] | KeyedLines | SettledLines>) {
    // Batches read ahead arrive as resolved promises: without a turn of the event loop now and
    // then, a signal (Ctrl-C) or a timer waited for the whole import (ImportOptions.onBatch).
    if (performance.now() - turned > TURN_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      turned = performance.now();
    }
    if (isSettledLines(item)) {
      // Order does not matter for lines that change nothing: no batch is cut short for them.
      yield item;
    } else if (isKeyedLines(item)) {
      if (batch.length > 0) yield batch;
      batch = [];
      yield item;
    } else if (Array.isArray(item)) {
      for (const r of item as readonly ImportRecord[]) {
        batch.push(r);
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
    } else {
      batch.push(item as ImportRecord);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * What the register keeps about a company beyond its API record, for the open-data imports:
 * the business description (searchable through q), which sources list it, and each source's
 * view of its standing, from which `status` is derived.
 */
export interface CompanyInternals {
  description: string;
  /** Bits of the sources that list it: SOURCE_BITS. */
  sources: number;
  bolagsverket_standing: string | null;
  scb_activity: string | null;
  /** Fingerprints of the company's last line in each source's file (ImportRecord.fingerprint). */
  bolagsverket_hash: number | null;
  scb_hash: number | null;
}

export const SOURCE_BITS = { bolagsverket: 1, scb: 2 } as const;

export const NO_INTERNALS: CompanyInternals = Object.freeze({
  description: '',
  sources: 0,
  bolagsverket_standing: null,
  scb_activity: null,
  bolagsverket_hash: null,
  scb_hash: null,
});

/** The internals of a stored row (or of a planned company's), each missing one at its blank value. */
export function internalsOf(row: Partial<CompanyInternals>): CompanyInternals {
  return {
    description: row.description ?? '',
    sources: row.sources ?? 0,
    bolagsverket_standing: row.bolagsverket_standing ?? null,
    scb_activity: row.scb_activity ?? null,
    bolagsverket_hash: row.bolagsverket_hash ?? null,
    scb_hash: row.scb_hash ?? null,
  };
}

/** A company as the store keeps it. A planner that leaves `internal` out keeps what is stored. */
export type StoredCompany = Company & { internal?: CompanyInternals };

export interface PlannedEvent {
  event: BolagEvent;
  /** The company as webhook filters see it. */
  subject: Record<string, string | string[]>;
}

export interface PlannedWrite {
  company: StoredCompany;
  events: PlannedEvent[];
}

/**
 * Decides, inside the store's transaction, what a record does to the register: the merged
 * company and the events its differences imply (none: written without events), or null when
 * nothing changes. Throws (with the line number) to abort the import.
 */
export type ImportPlanner = (
  record: ImportRecord,
  existing: StoredCompany | null,
  id: string | null,
  now: string,
  /** True when the store records no events for this import (a first load): a planner may skip making them. */
  quiet?: boolean,
) => PlannedWrite | null;

export interface ImportOptions {
  /**
   * A key the file gives again after a line of it was taken (planned or found unchanged) is
   * left, the first line standing (the open-data files: two lines of one organisation, different,
   * overwrote each other every week with an event each). Unset, a later line applies on top of
   * the earlier (our own format).
   */
  firstLineStands?: boolean;
  /**
   * true (default): one transaction, all or nothing. false: committed batch by batch, so a
   * large import does not hold the write lock from a running server for minutes.
   */
  atomic?: boolean;
  /** Records compared with the register per read (default IMPORT_BATCH_SIZE). */
  batchSize?: number;
  /**
   * Which stored fingerprint the records' `fingerprint` is compared with: records whose line
   * is unchanged since the last import are settled from the index alone.
   */
  fingerprints?: 'bolagsverket_hash' | 'scb_hash';
  /**
   * True when the record is exactly the stored company, so unchanged without being parsed or
   * planned (our JSONL: a line equal to the stored record's export). Asked, in the file's order,
   * for records that carry `key` and `text` and whose key is stored; a record whose key the batch
   * repeats is planned whatever the answer. Every other record's `data` is then made in order
   * before any record is planned, so a line that cannot be read stops the import where it did
   * before. The stored company is given without
   * its internals; not for imports with `fingerprints` (a matching record's is not remembered).
   */
  matchesStored?: (record: ImportRecord, existing: StoredCompany) => boolean;
  /**
   * After each batch, with the records read so far. What it throws stops the import there: the
   * transaction it runs in is rolled back (all of an atomic import; else the batches since the
   * last commit), and the error is the import's (Ctrl-C: src/cli/commands/db/import.ts).
   */
  onBatch?: (records: number) => void;
  /**
   * A first load's index builds after its last batch (tens of seconds at full size, when no
   * batch comes): `done` of `total` built, from 0 of them to all.
   */
  onIndexes?: (done: number, total: number) => void;
  /**
   * Called once an atomic import holds the register's write lock (SQLite's BEGIN IMMEDIATE,
   * PostgreSQL's IMPORT_LOCK), before it reads a batch: from then until it ends nothing else writes
   * the register, so a reader may settle lines against the register as it reads it from then on
   * (SettledLines): a snapshot taken now (SQLite), or each batch as committed (PostgreSQL, where
   * the import's own writes are not committed until it ends). Not called where the store takes no
   * such lock for the whole import.
   */
  onLocked?: () => void;
  /**
   * Called once for each thing the import has to wait for (SQLite): another process's first load
   * of this register, which runs alone on the file until its indexes are built (minutes at full
   * size), or the write lock another process holds past the busy timeout (a long all-or-nothing
   * import).
   */
  onWait?: (why: ImportWait) => void;
  /**
   * Companies listed by this source (a SOURCE_BITS bit) before that the file no longer holds:
   * after the last batch, each is planned with `plan` (e.g. marked as gone), never deleted.
   */
  vanished?: {
    sourceBit: number;
    plan: (existing: StoredCompany, now: string) => PlannedWrite | null;
    /** Asked after the last batch: false skips the step (say, a file that was mostly unreadable). */
    enabled?: () => boolean;
    /**
     * The most rows the step may mark, given how many the source listed: when more are gone,
     * none is marked and ImportResult.vanishedWithheld says how many (a file cut short must not
     * mark the register as gone). Asked where the store knows the listed rows (with fingerprints).
     */
    limit?: (listed: number) => number;
    /**
     * Listed companies the step never marks, whether or not the file holds them (its org nr as a
     * number): the sole traders an import without --include-persons leaves out unread.
     */
    spare?: (orgNr: number) => boolean;
  };
  /**
   * The first import of a source (no company lists this SOURCE_BITS bit yet) records no events:
   * building the register from a source is not a change anyone subscribed to. Unless atomic, it
   * also loads in bulk: the secondary indexes are dropped and built once at the end (searches
   * running meanwhile are slow).
   */
  firstLoadOf?: number;
  /**
   * What that first load sets on most of the companies another source listed before: fields of
   * the record and internals. Onto such a register only the indexes over these are dropped and
   * built at the end; the others are kept and follow each write (SCB's first load leaves the
   * names, their full-text index and the dates as Bolagsverket's made them). A speed hint only:
   * a kept index follows every write, whatever the write changes. Unset: all are dropped.
   */
  firstLoadWrites?: readonly (keyof Company | keyof CompanyInternals)[];
}

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  /** Companies the source no longer lists, marked by `vanished.plan`. */
  vanished?: number;
  /** Companies the source no longer lists, not marked: more than `vanished.limit` allows. */
  vanishedWithheld?: number;
  /** Lines left for an earlier line of their key (ImportOptions.firstLineStands); counted in `unchanged` too. */
  repeated?: number;
  events: Partial<Record<EventType, number>>;
}
