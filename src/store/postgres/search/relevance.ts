// sort=relevance, tier by tier (text-sql.ts), each tier its own ordered read so that a broad
// query ("ab", "bygg") costs a page, not a ranking of its hundred thousand matches:
//   1 names that begin with the query - the name index, from the query to its prefix end
//   2 every word exact               - by rowid
//   3 the last word as a prefix       - by rowid
//   4 a word only in the industry     - by rowid
// PostgreSQL chooses per tier between walking rowids and testing each row (many matches) and
// collecting the full-text index's matches and sorting them (few). Descending relevance reads
// the tiers the other way round; within a tier the order is the same (names descending in tier 1).
import type { SearchQuery } from '../../../core/search-params.js';
import type { Queryable } from '../database.js';
import type { Conditions } from './filters.js';
import type { Position } from './position.js';
import { type Hit, readStretch, type Stretch } from './read.js';
import { not, type Sql, sql } from './sql.js';

export async function relevancePage(db: Queryable, query: SearchQuery, conds: Conditions, checks: Sql[], after: Position | null, need: number): Promise<Hit[]> {
  const text = conds.text!;
  const desc = query.sort.descending;
  const expand = query.expand.includes('latest_financials');
  const startsWith = sql(`${text.inName.sql} AND ${text.startsWith.sql}`, ...text.inName.params, ...text.startsWith.params);
  const tiers: [number, Sql[]][] = [
    [1, [startsWith]],
    [2, [text.exact, not(text.startsWith)]],
    [3, [text.inName, not(text.exact), not(text.startsWith)]],
  ];
  if (text.industry) tiers.push([4, [not(text.inName)]]);
  if (desc) tiers.reverse();
  const startTier = after ? Number(String(after.v)[0]) : null;
  const hits: Hit[] = [];
  let started = startTier === null;
  for (const [tier, own] of tiers) {
    if (!started && tier !== startTier) continue;
    const resume = !started ? after : null;
    started = true;
    const where = [...checks, ...own];
    let stretch: Stretch;
    if (tier === 1) {
      if (resume) {
        const k = String(resume.v).slice(1);
        where.push(desc ? sql('c.name_sort <= ? AND (c.name_sort < ? OR c.rowid > ?)', k, k, resume.r) : sql('(c.name_sort, c.rowid) > (?, ?)', k, resume.r));
      }
      stretch = { where, value: sql("'1' || c.name_sort"), orderBy: `c.name_sort${desc ? ' DESC' : ''}, c.rowid`, limit: need - hits.length };
    } else {
      if (resume) where.push(sql('c.rowid > ?', resume.r));
      stretch = { where, value: sql(`'${tier}'`), orderBy: 'c.rowid', limit: need - hits.length };
    }
    hits.push(...(await readStretch(db, stretch, expand)));
    if (hits.length >= need) break;
  }
  return hits;
}

