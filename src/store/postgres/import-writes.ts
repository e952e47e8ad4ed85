// How an import's batch reaches PostgreSQL (company-import.ts): new rows as COPY text, changed
// rows as one JSON array merged by one UPDATE, events in one INSERT (into the outbox, or, for an
// all-or-nothing import, into a table of their own until it ends: see publishStagedEvents).
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { CompanyInternals } from '../import-types.js';
import { INTERNAL_COLUMNS } from '../sqlite/company-row.js';
import { copyLineWriter, PG_COLUMNS, type PgCompanyRow } from './company-row.js';

const WRITTEN = [...PG_COLUMNS, ...INTERNAL_COLUMNS];
/** A new row and its internals as a line of the COPY below. */
export const copyRow = copyLineWriter(PG_COLUMNS, INTERNAL_COLUMNS);
// New rows reach the server as COPY text (no JSON to build here nor to parse there); changed
// rows, fewer (a weekly update changes a few %), as one JSON array merged by one UPDATE (a
// temporary table filled by COPY cost a TRUNCATE per batch, more than it saved).
const COPY_INSERT = `COPY companies (${WRITTEN.join(', ')}) FROM STDIN`;
const UPDATE = `UPDATE companies c SET (${WRITTEN.filter((c) => c !== 'rowid').join(', ')}) =
  (${WRITTEN.filter((c) => c !== 'rowid').map((c) => `v.${c}`).join(', ')})
  FROM json_populate_recordset(NULL::companies, $1::json) v WHERE c.rowid = v.rowid`;
const insertEvents = (table: EventsTable) => `INSERT INTO ${table} (account_id, event, subject, created_at)
  SELECT NULL, e.event::json, e.subject::json, $3 FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS e(event, subject, n) ORDER BY e.n`;

/** Where a batch's events go: the outbox, or an all-or-nothing import's staging table. */
export type EventsTable = 'outbox' | 'import_events';

/**
 * An all-or-nothing import runs in one transaction, and the outbox's first row takes the lock
 * that makes outbox writers commit one after another (service-migrations.ts): written there
 * batch by batch, every other writer of an event (an export's settle, on any replica) waited for
 * the whole import. Its events wait in `import_events` instead (service migration 109), and
 * reach the outbox in one statement just before the commit: the lock is held for that alone.
 * Each import moves only the rows it wrote, as no other transaction sees them uncommitted.
 */
export async function publishStagedEvents(client: pg.ClientBase): Promise<void> {
  await client.query(`WITH moved AS (DELETE FROM import_events RETURNING n, account_id, event, subject, created_at)
    INSERT INTO outbox (account_id, event, subject, created_at) SELECT account_id, event, subject, created_at FROM moved ORDER BY n`);
}

/** A batch's writes, in the caller's transaction: new rows by COPY, changed rows by one UPDATE, then the events. */
export async function flush(
  client: pg.ClientBase,
  inserts: Map<number, string>,
  updates: Map<number, string>,
  events: [string, string][],
  now: string,
  eventsTable: EventsTable = 'outbox',
): Promise<void> {
  if (inserts.size > 0) await copyIn(client, COPY_INSERT, inserts.values());
  if (updates.size > 0) await client.query(UPDATE, [`[${[...updates.values()].join(',')}]`]);
  if (events.length > 0) await client.query(insertEvents(eventsTable), [events.map((e) => e[0]), events.map((e) => e[1]), now]);
}

/** Lines in COPY's text format (copyLineWriter), one statement. */
async function copyIn(client: pg.ClientBase, sql: string, lines: Iterable<string>): Promise<void> {
  const text = Array.from(lines).join('');
  const stream = client.query(copyFrom(sql));
  await new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
    stream.end(text);
  });
}

/** A changed row and its internals as one JSON object, for UPDATE's json_populate_recordset. */
export function updateJson(row: PgCompanyRow, internal: CompanyInternals): string {
  return `${JSON.stringify(row).slice(0, -1)},${JSON.stringify(internal).slice(1)}`;
}
