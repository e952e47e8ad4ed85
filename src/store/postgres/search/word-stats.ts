// How many companies hold a name word, from PostgreSQL's own statistics of the `words` column
// (the most common lexemes and their frequencies, gathered by ANALYZE), kept for a few
// minutes. The relevance tiers use it to choose between collecting a word's rows through the
// full-text index and walking rowids: the planner's LIMIT costing assumes matches are spread
// evenly and walks a whole table for a tier that turns out empty. The same statistics of the
// `sni` column's keys (sni-keys.ts) say how many companies an SNI prefix leaves.
import type { Queryable } from '../database.js';
import { prefixEnd } from '../../sqlite/search/predicates.js';
import type { TextWord } from '../../sqlite/search/text-query.js';

const TTL_MS = 5 * 60_000;

interface WordStats {
  rows: number;
  /** Lexeme → share of companies, sorted by lexeme for prefix sums. */
  freq: Map<string, number>;
  sorted: string[];
  /** Share assumed for a lexeme not among the common ones. */
  rare: number;
  at: number;
}

type Column = 'words' | 'sni';
const caches: Record<Column, WeakMap<Queryable, WordStats>> = { words: new WeakMap(), sni: new WeakMap() };

export function wordStats(db: Queryable): Promise<WordStats> {
  return elementStats(db, 'words');
}

/**
 * Companies that hold any of these `sni` keys, by the statistics (an upper bound: a company may
 * hold several); null before ANALYZE has seen the column, when a guess of "rare" would have a
 * plan collect every row of a common word.
 */
export async function sniKeyRows(db: Queryable, keys: readonly string[]): Promise<number | null> {
  const stats = await elementStats(db, 'sni');
  if (stats.freq.size === 0) return null;
  return Math.min(1, keys.reduce((sum, k) => sum + (stats.freq.get(k) ?? stats.rare), 0)) * stats.rows;
}

async function elementStats(db: Queryable, column: Column): Promise<WordStats> {
  const cache = caches[column];
  const hit = cache.get(db);
  if (hit && Date.now() - hit.at < TTL_MS) return hit;
  const { rows } = await db.query<{ elems: string[] | null; freqs: number[] | null; tuples: number }>(
    `SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs,
            (SELECT greatest(reltuples, 0) FROM pg_class WHERE oid = 'companies'::regclass)::float8 AS tuples
     FROM pg_stats s WHERE s.schemaname = current_schema() AND s.tablename = 'companies' AND s.attname = $1`,
    [column],
  );
  const r = rows[0];
  const freq = new Map<string, number>();
  const elems = r?.elems ?? [];
  const freqs = r?.freqs ?? [];
  elems.forEach((e, i) => freq.set(e, freqs[i]));
  // The array ends with the lowest and highest frequency and the null share.
  const lowest = freqs.length > elems.length ? freqs[elems.length] : 0.0001;
  const stats = { rows: r?.tuples ?? 0, freq, sorted: [...freq.keys()].sort(), rare: lowest / 2, at: Date.now() };
  cache.set(db, stats);
  return stats;
}

/** Companies whose name holds the word (the last as a prefix when it is one), by the statistics. */
export function wordRows(stats: WordStats, w: TextWord): number {
  if (w.digits) return 1; // org nr words: one company, or a few name words
  if (!w.prefix) return (stats.freq.get(w.text) ?? stats.rare) * stats.rows;
  let share = 0;
  for (const e of stats.sorted) if (e.startsWith(w.text)) share += stats.freq.get(e)!;
  return Math.max(share, stats.rare) * stats.rows;
}

const orgCaches = new WeakMap<Queryable, Map<string, { n: number; at: number }>>();

/**
 * Companies whose org nr begins with these digits, as the planner estimates the range from the
 * column's histogram (one EXPLAIN, kept for a few minutes). A number as the last word of q is
 * such a prefix: "55" holds most aktiebolag, "5560361234" one company, and taking every number
 * for one company had a plan collect and sort 170,000 rowids (q=55: 250 ms a page).
 */
export async function orgPrefixRows(db: Queryable, digits: string): Promise<number> {
  let cache = orgCaches.get(db);
  if (!cache) orgCaches.set(db, (cache = new Map()));
  const hit = cache.get(digits);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.n;
  const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    'EXPLAIN (FORMAT JSON) SELECT 1 FROM companies WHERE org_nr >= $1 AND org_nr < $2',
    [digits, prefixEnd(digits)],
  );
  const n = rows[0]['QUERY PLAN'][0].Plan['Plan Rows'];
  if (cache.size > 1000) cache.clear();
  cache.set(digits, { n, at: Date.now() });
  return n;
}
