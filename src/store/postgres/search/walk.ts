// Stretches in an index's order (search/sorted.ts), read walked, collected, or from the order's
// index alone; several of them (sort=-employees_class reads value by value: sixteen stretches,
// most of them a few rows) as parts of one statement, so that they cost one round trip, not one
// or two each.
//
// A walk reads the order's index from the cursor on, at most `budget` entries, testing the
// other filters on the rows read. A walk that falls short of its page was either complete (the
// index held fewer entries than the budget: nothing more to find) or cut; only a cut walk must
// be collected. A stretch alone is collected whenever its walk falls short, as ever (most are
// broad: a walk that falls short was cut). Parts of one statement end each walk with its
// sentinel: the entry at position `budget`, found from the index alone and run only when the
// walk fell short (UNION ALL runs its parts in order and the outer LIMIT stops it): no
// sentinel, no collect. A stretch alone has none: planning it costs more than it saves.
import { readColumns } from '../company-row.js';
import type { Queryable } from '../database.js';
import type { Hit } from './read.js';
import { and, rows, type Sql } from './sql.js';

export interface WalkInput {
  /** Conditions of the walked index (its leading columns, the cursor, the nulls). */
  own: Sql[];
  /** Every other filter, tested on the rows walked. */
  rest: Sql[];
  /** Added when collecting. */
  hints: Sql[];
  /** Entries walked at most; 0 or less: collected at once. */
  budget: number;
  value: Sql;
  order: string;
  /** The same order written so that no index provides it. */
  collectOrder: string;
  limit: number;
  /** Several parts in one statement: the sort value every row of this part has. */
  partOf?: string | number;
}

/**
 * Parts planned in one statement: the first few, then more. Every part is planned even when the
 * page fills before it runs (sixteen values with their sentinels: ~3 ms of planning), and most
 * pages fill within the first few.
 */
const PARTS_AT_ONCE = [4, 8];

type Row = Record<string, unknown> & { rowid: number; v: string | number | null; cut: boolean };

/** The part as SQL: the rows with `v` (sort value) and `cut` (true only on a cut walk's sentinel). */
export function partSql(s: WalkInput, expand: boolean, sentinel: boolean): Sql {
  const cols = `${readColumns(expand)}, ${s.value.sql} AS v`;
  const own = and(s.own);
  if (s.rest.length === 0) {
    return { sql: `SELECT ${cols}, false AS cut FROM companies c WHERE ${own.sql} ORDER BY ${s.order} LIMIT ?`, params: [...s.value.params, ...own.params, s.limit] };
  }
  if (s.budget <= 0) return collectSql(s, expand);
  const rest = and(s.rest);
  const budget = Math.max(1, Math.round(s.budget));
  const walk = `SELECT ${cols}, false AS cut FROM (SELECT * FROM companies c WHERE ${own.sql} ORDER BY ${s.order} LIMIT ?) c WHERE ${rest.sql} ORDER BY ${s.order} LIMIT ?`;
  if (!sentinel) return { sql: walk, params: [...s.value.params, ...own.params, budget, ...rest.params, s.limit] };
  return {
    sql:
      `(${walk})` +
      ` UNION ALL (SELECT ${cols}, true AS cut FROM companies c WHERE c.rowid = (SELECT c.rowid FROM companies c WHERE ${own.sql} ORDER BY ${s.order} OFFSET ? LIMIT 1))`,
    params: [...s.value.params, ...own.params, budget, ...rest.params, s.limit, ...s.value.params, ...own.params, budget - 1],
  };
}

function collectSql(s: WalkInput, expand: boolean): Sql {
  const where = and([...s.own, ...s.rest, ...s.hints]);
  return {
    sql: `SELECT ${readColumns(expand)}, ${s.value.sql} AS v, false AS cut FROM companies c WHERE ${where.sql} ORDER BY ${s.collectOrder} LIMIT ?`,
    params: [...s.value.params, ...where.params, s.limit],
  };
}

const hit = (row: Row): Hit => ({ r: row.rowid, v: row.v, row: row as never });

/**
 * The parts' rows in order, up to `limit`, a few parts a statement; a cut walk is collected
 * instead (its walked rows dropped) and the parts after it read afresh.
 */
export async function readParts(db: Queryable, parts: readonly WalkInput[], limit: number, expand: boolean): Promise<Hit[]> {
  if (parts.length === 1) return readStretchAlone(db, { ...parts[0], limit: Math.min(parts[0].limit, limit) }, expand);
  const hits: Hit[] = [];
  let from = 0;
  for (let round = 0; from < parts.length && hits.length < limit; round++) {
    const want = limit - hits.length;
    const upTo = Math.min(parts.length, from + PARTS_AT_ONCE[Math.min(round, PARTS_AT_ONCE.length - 1)]);
    const sqls = parts.slice(from, upTo).map((p) => partSql({ ...p, limit: Math.min(p.limit, want) }, expand, true));
    const found = await rows<Row>(db, {
      sql: sqls.length === 1 ? `SELECT * FROM (${sqls[0].sql}) u LIMIT ?` : `SELECT * FROM (${sqls.map((p) => `(${p.sql})`).join(' UNION ALL ')}) u LIMIT ?`,
      params: [...sqls.flatMap((p) => p.params), want],
    });
    // Rows come part by part; a part's rows begin where the previous part's sentinel or last row was.
    let part = from;
    let partStart = hits.length;
    let cutAt: number | null = null;
    for (const row of found) {
      while (part < upTo - 1 && !belongsTo(parts[part], row)) {
        part++;
        partStart = hits.length;
      }
      if (row.cut) {
        cutAt = part;
        break;
      }
      hits.push(hit(row));
    }
    if (cutAt === null) {
      from = upTo;
      continue;
    }
    hits.length = partStart;
    const p = parts[cutAt];
    hits.push(...(await rows<Row>(db, collectSql({ ...p, limit: Math.min(p.limit, limit - hits.length) }, expand))).map(hit));
    from = cutAt + 1;
  }
  return hits;
}

/** A stretch alone: walked, and collected when the walk falls short. */
async function readStretchAlone(db: Queryable, s: WalkInput, expand: boolean): Promise<Hit[]> {
  if (s.limit <= 0) return [];
  const found = await rows<Row>(db, partSql(s, expand, false));
  if (found.length >= s.limit || s.rest.length === 0 || s.budget <= 0) return found.map(hit);
  return (await rows<Row>(db, collectSql(s, expand))).map(hit);
}

/** Whether a row is of this part: parts of one statement differ in their sort value (`partOf`). */
function belongsTo(p: WalkInput, row: Row): boolean {
  return p.partOf === undefined || p.partOf === row.v;
}
