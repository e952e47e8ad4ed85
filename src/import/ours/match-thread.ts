// The thread that reads our JSONL for an import (match-ahead.ts) and, while the importing thread
// is busy, compares batches of it with the register: a line equal to its stored record's export
// is settled here and only counted over there. The importing thread gets the other lines' texts
// and compares, plans and writes them as before.
//
// Why the register as read here is enough: nothing is compared before the import holds the write
// lock, which it holds to its end, so no other import changes a company meanwhile; a line is
// settled here only when no earlier line of the file had its org nr (SeenKeys), so the import has
// not changed its company either. A later line of that org nr goes to the import, which compares
// it with the register as it is by then.
// - SQLite: a snapshot (RecordSnapshot) taken once the import holds the lock.
// - PostgreSQL: each batch read as committed (CommittedRecords): the import's own writes are not
//   committed until it ends, and the rest is what it was when the import took the lock.
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { normalizeOrgNr } from '../../core/orgnr.js';
import type { ImportRecord } from '../../store/import-types.js';
import { MatchProbe } from '../../store/match-probe.js';
import { type CompanyRow, rowToCompany } from '../../store/sqlite/company-row.js';
import { describeReadError } from '../open-data/read-messages.js';
import { readJsonlRecords } from './read-jsonl.js';
import { matchesExportLine } from './export-line.js';
import { type MatchMessage, type MatchRegister, SHARED, type MatchThreadData } from './match-messages.js';
import { SeenKeys } from './seen-keys.js';

/**
 * Batches posted and not yet taken: enough that the import never waits, and that this thread
 * need not while the import writes. The lines in them are bounded by workWaiting.
 */
const AHEAD = 8;

const port = parentPort!;
const { filePath, register, batchSize, mode, shared: memory } = workerData as MatchThreadData;
const shared = new Int32Array(memory);
const send = (m: MatchMessage) => port.postMessage(m);

/** The stored records of a batch's lines, by org nr, on either store. */
interface StoredRecords {
  read(batch: readonly ImportRecord[], heads: readonly (string | null)[]): Map<string, CompanyRow> | Promise<Map<string, CompanyRow>>;
  close(): void | Promise<void>;
}

/** Each store's reader loaded only where it is used: the thread's heap is small. */
async function storedRecords(where: MatchRegister): Promise<StoredRecords> {
  if ('databaseUrl' in where) {
    const { CommittedRecords } = await import('../../store/postgres/stored-records.js');
    const committed = new CommittedRecords(where.databaseUrl);
    return { read: (_batch, heads) => committed.records(heads), close: () => committed.close() };
  }
  const { RecordSnapshot } = await import('../../store/sqlite/record-snapshot.js');
  const snapshot = new RecordSnapshot(where.dbPath);
  return {
    read: (batch, heads) => {
      snapshot.pin();
      return snapshot.records(batch, heads);
    },
    close: () => snapshot.close(),
  };
}

/**
 * Sized by the file: an export line is at least this long (a company with empty fields is about
 * 600 bytes), so the file has at most size / this many lines.
 */
const SHORTEST_LINE_BYTES = 400;
const seen = new SeenKeys(statSync(filePath).size / SHORTEST_LINE_BYTES);
const probe = new MatchProbe();
/**
 * Set once a line's org nr cannot be known here (not JSON: the import stops at that line), or a
 * batch was mostly lines not of the export's shape: from then on every line is handed over.
 */
let blind = false;

/**
 * The org nr the import will write the line under: its head's when the line names `org_nr`
 * once and escapes nothing with \u (so no other spelling of the key hides later in it), else
 * what parsing it says. Undefined when the line is not JSON.
 */
function keyOf(record: ImportRecord): string | null | undefined {
  const text = record.text!;
  if (record.key !== undefined && text.indexOf('"org_nr"') === text.lastIndexOf('"org_nr"') && !text.includes('\\u')) return record.key;
  try {
    return normalizeOrgNr(String(record.data.org_nr ?? ''));
  } catch {
    return undefined;
  }
}

/**
 * The import's work in each batch posted (by its number from 0), in lines compared: a batch left
 * to it whole is its lines; a compared batch is the lines it must plan, each about fifteen
 * comparisons' worth (parsed, planned, written: ~150 µs against ~10 µs).
 */
const workPosted: number[] = [];
const PLANNED_LINE_WORK = 15;

/**
 * The work in batches posted and not yet taken: the import's in hand. While it has two batches'
 * worth, this thread compares the next batch (about as long as the import takes for one); with
 * less, the import would wait for it, so the batch is handed over as read.
 */
function workWaiting(): number {
  let n = 0;
  for (let i = Atomics.load(shared, SHARED.taken); i < workPosted.length; i++) n += workPosted[i];
  return n;
}

async function post(stored: StoredRecords, batch: ImportRecord[]): Promise<void> {
  while (Atomics.load(shared, SHARED.sent) - Atomics.load(shared, SHARED.taken) >= AHEAD) {
    Atomics.wait(shared, SHARED.taken, Atomics.load(shared, SHARED.taken), 1000);
  }
  let compare = !blind && Atomics.load(shared, SHARED.locked) === 1 && (mode === 'always' || workWaiting() >= 2 * batchSize) && probe.shouldTry();
  let records: Map<string, CompanyRow> | null = null;
  if (compare) {
    try {
      records = await stored.read(batch, batch.map((r) => r.key ?? null));
    } catch {
      // A register this thread cannot read is left to the import, which reads it itself and
      // reports what fails there.
      blind = true;
      compare = false;
    }
  }
  const lines: number[] = [];
  const texts: string[] = [];
  let settled = 0;
  let tried = 0;
  let headless = 0;
  for (const record of batch) {
    if (record.key === undefined) headless++;
    // A line equal to its stored record's export names its org nr once, in its head.
    const row = records !== null && !blind && record.key !== undefined ? records.get(record.key) : undefined;
    if (row !== undefined && !seen.has(Number(record.key))) {
      tried++;
      if (matchesExportLine(record, rowToCompany(row, { expand: true }))) {
        seen.add(Number(record.key));
        settled++;
        continue;
      }
    }
    if (!blind) {
      const key = keyOf(record);
      if (key === undefined) blind = true;
      else if (key !== null) seen.add(Number(key));
    }
    lines.push(record.line);
    texts.push(record.text!);
  }
  if (compare) probe.tried(tried, settled);
  // Lines not of the export's shape are parsed here only to know their org nr: a file mostly of
  // them (written by hand, say) has none to settle, so the rest goes to the import unread.
  if (headless * 2 > batch.length) blind = true;
  send({ type: 'batch', lines, texts, settled });
  workPosted.push(compare ? texts.length * PLANNED_LINE_WORK : batch.length);
  Atomics.add(shared, SHARED.sent, 1);
}

async function run(): Promise<void> {
  let stored: StoredRecords | null = null;
  try {
    stored = await storedRecords(register);
    let batch: ImportRecord[] = [];
    for (const record of readJsonlRecords(filePath)) {
      batch.push(record);
      if (batch.length >= batchSize) {
        await post(stored, batch);
        batch = [];
      }
    }
    if (batch.length > 0) await post(stored, batch);
    send({ type: 'end' });
  } catch (e) {
    send({ type: 'error', error: describeReadError(e) });
  } finally {
    try {
      await stored?.close();
    } catch {
      // Closing a reader that failed: the import reads and reports for itself.
    }
    port.unref();
  }
}

void run();
