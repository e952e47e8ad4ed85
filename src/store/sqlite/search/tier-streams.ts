// Where relevance tiers 2 and 3 (every word in the name, the last exact or as a prefix) are
// read from, in rowid order. The full-text index gives both, but two of its query shapes are dear:
//   - a prefix longer than the prefix index's two letters ("fastighet"*) merges the lists of every
//     word that begins so before it returns its first row (67,000 rows: 3 ms), where the two
//     letters ("fa"*) stream from the prefix index and hold mostly the same rows;
//   - words of which one is rare and one common ("i" AND "ab") cost a seek into the common word's
//     list per row of the rare one, to the end when few rows match: paid for tier 2, then again
//     for tier 3.
// So the last word cut to two letters is read first (a superset of both tiers: each tier still
// tests its rows). When it holds few rows, they are listed once and both tiers read the list;
// when many, tier 3 reads that stream while its rows are dense in it, else the exact prefix.
import type { Db } from '../database.js';
import { FTS_COLUMNS, ftsPhrase, type Sql } from './predicates.js';
import { pluckOne, rawAll } from './statements.js';
import { TIER_PREFIX, type TextQuery } from './text-query.js';
import type { Position } from './walk.js';

/** Rows of the wide stream listed at most: fewer found means the list is complete. */
const LIST_MAX = 256;
/** Rows of the wide stream read to tell whether tier 3 is dense in it, and the share that is. */
const DENSITY_ROWS = 128;
const DENSE = 0.1;

const TIER_OF_ROW = 'bolag_tier(?, c.name_sort, c.org_nr, c.category_slug, c.sni_codes, c.description)';

export interface TierStreams {
  exact: (pos: Position | null) => Sql;
  prefix: (pos: Position | null) => Sql;
}

/** Full-text matches of an expression in rowid order, after a position. */
export function ftsStream(expr: string) {
  return (pos: Position | null): Sql =>
    pos
      ? { sql: 'SELECT rowid AS r, NULL AS k FROM companies_fts WHERE companies_fts MATCH ? AND rowid > ? ORDER BY rowid', params: [expr, pos.r] }
      : { sql: 'SELECT rowid AS r, NULL AS k FROM companies_fts WHERE companies_fts MATCH ? ORDER BY rowid', params: [expr] };
}

/** The prefix expression with its last word cut to the two letters the prefix index holds, or itself. */
export function widePrefix(tq: TextQuery, prefixExpr: string): string {
  const last = tq.words[tq.words.length - 1];
  const letters = last ? [...last.text] : [];
  if (!last || last.digits || letters.length <= 2) return prefixExpr;
  const phrases = [...tq.words.slice(0, -1).map((w) => ftsPhrase(w)), `"${letters.slice(0, 2).join('')}"*`];
  return `${FTS_COLUMNS} : (${phrases.join(' AND ')})`;
}

/** Decided on first use (a walk may never reach these tiers), then kept for the walk. */
export function tierStreams(db: Db, tq: TextQuery, exactExpr: string, prefixExpr: string): TierStreams {
  const wide = widePrefix(tq, prefixExpr);
  let list: number[] | null | undefined;
  let dense: boolean | undefined;
  const listed = (): number[] | null => {
    if (list === undefined) {
      const rows = rawAll(db, 'SELECT rowid FROM companies_fts WHERE companies_fts MATCH ? ORDER BY rowid LIMIT ?', [wide, LIST_MAX]);
      list = rows.length < LIST_MAX ? rows.map((r) => r[0] as number) : null;
    }
    return list;
  };
  const fromList = (rows: number[], pos: Position | null): Sql => ({
    sql: 'SELECT value AS r, NULL AS k FROM json_each(?) WHERE value > ? ORDER BY value',
    params: [JSON.stringify(rows), pos?.r ?? 0],
  });
  return {
    exact: (pos) => {
      // One word's exact matches are one list of the index, read lazily: nothing to save.
      if (tq.words.length === 1 && list === undefined) return ftsStream(exactExpr)(pos);
      const rows = listed();
      return rows ? fromList(rows, pos) : ftsStream(exactExpr)(pos);
    },
    prefix: (pos) => {
      const rows = listed();
      if (rows) return fromList(rows, pos);
      if (wide === prefixExpr) return ftsStream(prefixExpr)(pos);
      dense ??= denseInWide(db, tq, wide, pos);
      return ftsStream(dense ? wide : prefixExpr)(pos);
    },
  };
}

/** Whether tier 3's rows are a tenth or more of the wide stream's, from its next rows. */
function denseInWide(db: Db, tq: TextQuery, wide: string, pos: Position | null): boolean {
  const share = pluckOne(
    db,
    `SELECT avg(${TIER_OF_ROW} = ?) FROM (SELECT rowid AS r FROM companies_fts WHERE companies_fts MATCH ? AND rowid > ? ORDER BY rowid LIMIT ?) s CROSS JOIN companies c ON c.rowid = s.r`,
    [tq.raw, TIER_PREFIX, wide, pos?.r ?? 0, DENSITY_ROWS],
  ) as number | null;
  return share === null || share >= DENSE;
}
