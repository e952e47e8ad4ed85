// Walking an order: read an index in the order asked for and test each row, until a page is
// full. Cheap when many rows pass (a page needs few), ruinous when few do, so a walk reads in
// chunks and gives up once it has read more index entries than its budget; the planner then
// starts from a driver instead. Reading resumes after the last entry of each chunk, so a walk
// never reads an entry twice.
import type { Db } from '../database.js';
import type { Sql } from './predicates.js';
import { rawAll } from './statements.js';

/** A place in an order: the order's key there (`k`) and the rowid. */
export interface Position {
  k: unknown;
  r: number;
}

export interface Phase {
  /**
   * SELECT r, k … ORDER BY … (no LIMIT), starting after the position when one is given:
   * the phase's start (a cursor), or where the last chunk ended (`resumed`).
   */
  inner(after: Position | null, resumed?: boolean): Sql;
  /**
   * Set when the order reads each value's rowids descending (sort-keys.ts): the entries of the
   * position's value after it, in the same order. The walk completes the page's last value from
   * it and puts every value's rows in rowid order.
   */
  group?(at: Position): Sql;
  /** The same order over the subquery's columns s.k and s.r. */
  order: string;
  /** Where this phase begins (a cursor's position), or null for its start. */
  start: Position | null;
  /** The sort value a row of this phase shows in a cursor. */
  value(k: unknown): string | number | null;
  /** A test that only this phase applies (relevance tiers). */
  check?: Sql;
  /**
   * Read every entry of a chunk back (with whether it passed) rather than only the rows that
   * pass plus a second query for where the chunk ended: for orders that are dear to start
   * (full-text matches of a prefix), which that second query would start again.
   */
  readBack?: boolean;
}

export interface Hit {
  r: number;
  v: string | number | null;
}

export interface WalkResult {
  hits: Hit[];
  /** Index entries read. */
  read: number;
  /** False when the budget ran out before the page was full or the order ended. */
  complete: boolean;
}

export interface WalkOptions {
  need: number;
  checks: Sql;
  /**
   * A test of each entry before its row is read (member-test.ts), in chunks only: a value's
   * rest (Phase.group) is a few entries, not worth building its set again.
   */
  entryTest?: Sql;
  /** Index entries the walk may read before giving up (Infinity: never). */
  budget: number;
  /** Entries in the first chunk; later chunks grow fourfold. */
  firstChunk: number;
}

const MAX_CHUNK = 65_536;

export function walk(db: Db, phases: readonly Phase[], o: WalkOptions): WalkResult {
  const hits: Hit[] = [];
  let read = 0;
  let chunk = Math.max(16, Math.min(MAX_CHUNK, Math.ceil(o.firstChunk)));
  for (const phase of phases) {
    let pos = phase.start;
    let resumed = false;
    let phaseRead = 0;
    let phaseHits = 0;
    const first = hits.length;
    for (;;) {
      if (read >= o.budget) return { hits, read, complete: false };
      const size = Math.max(16, Math.min(chunk, MAX_CHUNK, Number.isFinite(o.budget) ? Math.ceil(o.budget - read) : MAX_CHUNK));
      const inner = phase.inner(pos, resumed);
      const checks = phase.check ? `(${o.checks.sql}) AND (${phase.check.sql})` : o.checks.sql;
      const checkParams = phase.check ? [...o.checks.params, ...phase.check.params] : o.checks.params;
      if (phase.readBack) {
        const sql = `SELECT s.r, s.k, CASE WHEN ${checks} THEN 1 ELSE 0 END FROM (${inner.sql} LIMIT ?) s CROSS JOIN companies c ON c.rowid = s.r ORDER BY ${phase.order}`;
        const rows = rawAll(db, sql, [...checkParams, ...inner.params, size]);
        for (const [r, k, ok] of rows) {
          if (ok) {
            hits.push({ r: r as number, v: phase.value(k) });
            phaseHits++;
          }
          if (hits.length >= o.need) return { hits, read: read + rows.length, complete: true };
        }
        read += size;
        phaseRead += rows.length;
        if (rows.length < size) break;
        const last = rows[rows.length - 1];
        pos = { r: last[0] as number, k: last[1] };
        // A chunk read back is read whole: the next one is sized from the rows that passed so
        // far (half as many again), not four times the last.
        if (phaseHits > 0) {
          chunk = Math.min(MAX_CHUNK, chunk * 4, Math.max(16, Math.ceil(((o.need - hits.length) * phaseRead * 1.5) / phaseHits)));
          continue;
        }
      } else {
        const entry = o.entryTest ? { sql: `(${o.entryTest.sql}) AND `, params: o.entryTest.params } : { sql: '', params: [] };
        const sql = `SELECT s.r, s.k FROM (${inner.sql} LIMIT ?) s CROSS JOIN companies c ON c.rowid = s.r WHERE ${entry.sql}${checks} ORDER BY ${phase.order} LIMIT ?`;
        const rows = rawAll(db, sql, [...inner.params, size, ...entry.params, ...checkParams, o.need - hits.length]);
        for (const [r, k] of rows) hits.push({ r: r as number, v: phase.value(k), k } as Hit);
        read += size;
        if (hits.length >= o.need) {
          if (phase.group) {
            // The page's last value may go on past the rows taken: the rest of it, then each value's rows by rowid.
            const last = rows[rows.length - 1];
            const rest = phase.group({ r: last[0] as number, k: last[1] });
            for (const [r, k] of rawAll(db, `SELECT s.r, s.k FROM (${rest.sql}) s CROSS JOIN companies c ON c.rowid = s.r WHERE ${checks}`, [...rest.params, ...checkParams])) {
              hits.push({ r: r as number, v: phase.value(k), k } as Hit);
            }
            rowidsWithinValues(hits, first);
            hits.length = o.need;
          }
          return { hits: hits.map(({ r, v }) => ({ r, v })), read, complete: true };
        }
        // Where this chunk ended: its last index entry, or nothing when the phase ran out.
        const last = rawAll(db, `${inner.sql} LIMIT 1 OFFSET ?`, [...inner.params, size - 1])[0];
        if (!last) break;
        pos = { r: last[0] as number, k: last[1] };
        resumed = true;
      }
      chunk = Math.min(MAX_CHUNK, chunk * 4);
    }
    if (phase.group) rowidsWithinValues(hits, first);
  }
  return { hits: hits.map(({ r, v }) => ({ r, v })), read, complete: true };
}

/**
 * Hits from `from` on, read with each value's rowids descending, put in rowid order within each
 * value (the values' own order stays). `k` is the raw key the walk read.
 */
function rowidsWithinValues(hits: Hit[], from: number): void {
  let i = from;
  while (i < hits.length) {
    let j = i + 1;
    const k = (hits[i] as Hit & { k: unknown }).k;
    while (j < hits.length && (hits[j] as Hit & { k: unknown }).k === k) j++;
    if (j - i > 1) {
      const run = hits.slice(i, j).sort((a, b) => a.r - b.r);
      hits.splice(i, j - i, ...run);
    }
    i = j;
  }
}
