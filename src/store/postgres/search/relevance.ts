// sort=relevance, tier by tier (text-sql.ts), each tier its own ordered read so that a broad
// query ("ab", "bygg") costs a page, not a ranking of its hundred thousand matches:
//   1 names that begin with the query - the name index, from the query to its prefix end
//   2 every word exact               - by rowid
//   3 the last word as a prefix       - by rowid
//   4 a word only in the industry     - by rowid (its category, SNI codes or business description)
// A tier in rowid order whose words are rare (word-stats.ts) is collected from the full-text
// index and sorted; a common one is walked in rowid spans, testing each row, until the page is
// full, and collected after all if the walk passes its budget (the matches were rarer than
// the statistics said). Descending relevance reads the tiers the other way round; within a tier
// the order is the same (names descending in tier 1).
import type { SearchQuery } from '../../../core/search-params.js';
import type { Queryable } from '../database.js';
import type { Condition, Conditions } from './filters.js';
import { smallestFilter } from './filter-rows.js';
import type { Position } from './position.js';
import { type Hit, readStretch, readStretches, type Stretch } from './read.js';
import { not, type Sql, sql } from './sql.js';
import type { TextWord } from '../../sqlite/search/text-query.js';
import { orgPrefixRows, wordRows, wordStats } from './word-stats.js';
import { DESCRIPTION_MARK } from '../company-row.js';

/** A tier with at most this many candidate rows is collected through the full-text index (a row
 * collected is a random heap read, about ten times a row walked in rowid order). */
const COLLECT_ROWS = 1500;
/** A query of several words whose rarest name word has fewer rows than this is ranked in one pass. */
const RARE_WORD_ROWS = 20_000;
/** Rows a walk may read before it collects instead. */
const WALK_BUDGET = 30_000;

interface Tier {
  tier: number;
  /** Conditions tested on rows in hand (the other filters included). */
  where: Sql[];
  /** The same rows as an index finds them, to collect. */
  indexed: Sql;
  /** Candidate rows by the statistics (what collecting reads). */
  estimate: number;
  /** Rows of the tier by the statistics, words taken as independent (what a walk finds). */
  joint: number;
  /** The candidates' rowids from indexes alone (text-sql.ts nameRowids), to collect by. */
  rowids?: Sql | null;
}

/** A row collected is a random heap read: about ten rows walked in rowid order. */
const RANDOM_READ = 10;
/** The share of companies a word matching through the industry is taken to match. */
const INDUSTRY_SHARE = 0.1;

export async function relevancePage(db: Queryable, query: SearchQuery, conds: Conditions, checks: Sql[], after: Position | null, need: number): Promise<Hit[]> {
  const text = conds.text!;
  const desc = query.sort.descending;
  const expand = query.expand.includes('latest_financials');
  const stats = await wordStats(db);
  const words = text.query.words;
  // A number as the last word is also a prefix of the org nr: as many rows as that range holds.
  const numberRows = new Map<string, number>();
  for (const w of words) if (w.digits && w.prefix) numberRows.set(w.text, await orgPrefixRows(db, w.text));
  const rowsOfWord = (w: TextWord, exact: boolean) =>
    !exact && w.digits && w.prefix ? Math.max(1, numberRows.get(w.text)!) : wordRows(stats, exact ? { ...w, prefix: false } : w);
  const rowsOf = (ws: readonly TextWord[], exact = false) => Math.min(Infinity, ...ws.map((w) => rowsOfWord(w, exact)));
  const trivial = (s: Sql) => s.sql === 'true';
  const n = Math.max(stats.rows, 1);
  const jointOf = (exact: boolean, industry: boolean) =>
    narrow * n * words.reduce((p, w) => p * Math.min(1, rowsOfWord(w, exact) / n + (industry && w.industry.codes.size + w.industry.categories.size > 0 ? INDUSTRY_SHARE : 0)), 1);
  // Each tier's own conditions imply the match; the other filters are tested as they are.
  const others = checks.filter((c) => (c as { name?: string }).name !== 'q');
  // The share of companies a counted filter leaves (q=frisör&municipality=1480: a twentieth):
  // a walk in rowid order finds a tier's rows that much more slowly, and collecting through
  // the full-text and the filter's index together reads that much less.
  const narrow = Math.min(1, ((await smallestFilter(db, others as Condition[])) ?? n) / n);
  const phases: Phase[] = [];
  // Several words, one of them a rare name word: tiers 1-3 would be sparse streams (names with
  // one word of several) while that word's rows are few: they are ranked in one pass, as on SQLite.
  const rare = words.length > 1 ? text.nameCandidateWords.map((w) => ({ w, rows: wordRows(stats, w) })).sort((a, b) => a.rows - b.rows)[0] : undefined;
  // A rare word that cannot match through the industry is in every match: all tiers in one pass.
  const whole = rare !== undefined && rare.w.industry.codes.size + rare.w.industry.categories.size === 0;
  if (rare && rare.rows < RARE_WORD_ROWS) {
    const p = rare.w.prefix ? ':*' : '';
    // In every match: as a word of the name, or (tier 4) of the business description.
    const own = sql('c.words @@ ?::tsquery', whole ? `('${rare.w.text}'${p} | '${DESCRIPTION_MARK}${rare.w.text}'${p})` : `'${rare.w.text}'${p}`);
    phases.push({
      tiers: whole ? [1, 2, 3, 4] : [1, 2, 3],
      stretch: (resume, limit) => oneOrder([...others, own, whole ? text.match : text.inName], text.relevance, desc, resume, limit),
    });
  } else {
    phases.push({
      tiers: [1],
      stretch: (resume, limit) => {
        // A name that begins with the query holds each word (the last as a prefix): a walk of the
        // name index needs no per-row test. Not when the last word is a number (as a prefix it
        // matches the org nr only, not a name word it begins).
        const where = [...others, text.startsWith, ...(words[words.length - 1].digits ? [text.inName] : [])];
        if (resume) {
          const k = String(resume.v).slice(1);
          where.push(desc ? sql('c.name_sort <= ? AND (c.name_sort < ? OR c.rowid > ?)', k, k, resume.r) : sql('(c.name_sort, c.rowid) > (?, ?)', k, resume.r));
        }
        return { where, value: sql("'1' || c.name_sort"), orderBy: `c.name_sort${desc ? ' DESC' : ''}, c.rowid`, limit };
      },
    });
    phases.push(byRowid(db, { tier: 2, where: [...others, text.exact, not(text.startsWith)], indexed: text.exact, estimate: rowsOf(words, true), joint: jointOf(true, false) }, stats.rows, expand));
    // Collected through the name words alone when the last is a short prefix (that one would
    // make the index merge the lists of every word it begins). A number is left to the planner:
    // its org nr range or last four digits are often far fewer rows than the words (q=ab 9885:
    // the rows of "ab" were 168,000).
    phases.push(
      byRowid(
        db,
        {
          tier: 3,
          where: [...others, text.inName, not(text.exact), not(text.startsWith)],
          indexed: trivial(text.nameCandidates) || words.some((w) => w.digits) ? text.inNameIndexed : text.nameCandidates,
          estimate: Math.min(rowsOf(words), rowsOf(text.nameCandidateWords)),
          joint: jointOf(false, false),
          rowids: text.nameRowids,
        },
        stats.rows,
        expand,
      ),
    );
  }
  if (text.industry && !(whole && rare.rows < RARE_WORD_ROWS)) {
    const some = !trivial(text.candidates);
    const estimate = some ? rowsOf(text.candidateWords) : Infinity;
    phases.push(byRowid(db, { tier: 4, where: [...others, text.match, not(text.inName)], indexed: some ? text.candidates : text.matchIndexed, estimate, joint: jointOf(false, true) }, stats.rows, expand));
  } else if (!(whole && rare.rows < RARE_WORD_ROWS)) {
    // No category or SNI code: tier 4 is the rows with a word only in the business description,
    // looked up by the description's marked words (none on a register without descriptions).
    const described = text.describedWords.reduce((sum, w) => sum + wordRows(stats, { ...w, text: DESCRIPTION_MARK + w.text, prefix: w.prefix && !w.digits, digits: false }), 0);
    phases.push(byRowid(db, { tier: 4, where: [...others, text.match, not(text.inName)], indexed: text.describedBy, estimate: described, joint: described }, stats.rows, expand));
  }
  if (desc) phases.reverse();
  const startTier = after ? Number(String(after.v)[0]) : null;
  const hits: Hit[] = [];
  let started = startTier === null;
  // Phases that are one statement each, met in a row, run as one (readStretches): the tiers of
  // an org nr or a rare name are a few index lookups each, and the round trips cost more.
  let pending: Stretch[] = [];
  const flush = async () => {
    if (pending.length) hits.push(...(await readStretches(db, pending, need - hits.length, expand)));
    pending = [];
  };
  for (const phase of phases) {
    if (!started && !phase.tiers.includes(startTier!)) continue;
    const resume = !started ? after : null;
    started = true;
    const one = phase.stretch(resume, need - hits.length);
    if (one) {
      pending.push(one);
      continue;
    }
    await flush();
    if (hits.length >= need) break;
    hits.push(...(await phase.read!(resume, need - hits.length)));
    if (hits.length >= need) break;
  }
  await flush();
  return hits.slice(0, need);
}

interface Phase {
  /** The tiers this phase reads, in order. */
  tiers: number[];
  /** The phase as one statement, or null when it must be read step by step (`read`). */
  stretch(resume: Position | null, limit: number): Stretch | null;
  read?(resume: Position | null, limit: number): Promise<Hit[]>;
}

/** Candidates collected and sorted by relevance value, then rowid (descending: value only). */
function oneOrder(where: Sql[], value: Sql, desc: boolean, resume: Position | null, limit: number): Stretch {
  const all = [...where];
  if (resume) all.push(sql(`(${value.sql} ${desc ? '<' : '>'} ? OR (${value.sql} = ? AND c.rowid > ?))`, ...value.params, resume.v, ...value.params, resume.v, resume.r));
  return { where: all, value, orderBy: `v${desc ? ' DESC' : ''}, c.rowid`, limit };
}

/** A tier in rowid order: collected when its rows are few, else walked in spans. */
function byRowid(db: Queryable, t: Tier, rows: number, expand: boolean): Phase {
  return {
    tiers: [t.tier],
    stretch: (resume, limit) => (collects(t, limit, rows) ? collectStretch(t, resume?.r ?? 0, limit) : null),
    read: (resume, limit) => readByRowid(db, t, resume?.r ?? 0, limit, rows, expand),
  };
}

/** A tier whose rows are few, or rare against the rows a walk would read, is collected. */
function collects(t: Tier, limit: number, rows: number): boolean {
  const share = Math.min(1, Math.max(t.joint / Math.max(rows, 1), 1e-6));
  return t.estimate <= COLLECT_ROWS || t.estimate * RANDOM_READ <= limit / share;
}

/** A tier's rows after `after` collected through its indexes and sorted by rowid. */
function collectStretch(t: Tier, after: number, limit: number): Stretch {
  const value = sql(`'${t.tier}'`);
  // Rowids sorted first, then only the rows of the page read (a nested loop the LIMIT stops:
  // OFFSET 0 keeps the planner from joining the whole candidate list to the table).
  if (t.rowids) {
    return {
      from: sql(`(${t.rowids.sql} ORDER BY 1) k CROSS JOIN LATERAL (SELECT * FROM companies c WHERE c.rowid = k.rowid OFFSET 0) c`, ...t.rowids.params),
      where: [...t.where, sql('k.rowid > ?', after)],
      value,
      orderBy: 'k.rowid',
      limit,
    };
  }
  // `c.rowid + 0`: sorted after collecting, never read in rowid order from the primary key.
  return { where: [...t.where, t.indexed!, sql('c.rowid > ?', after)], value, orderBy: 'c.rowid + 0', limit };
}

async function readByRowid(db: Queryable, t: Tier, from: number, limit: number, rows: number, expand: boolean): Promise<Hit[]> {
  const where = t.where;
  const value = sql(`'${t.tier}'`);
  const collect = (after: number) => readStretch(db, collectStretch(t, after, limit), expand);
  const share = Math.min(1, Math.max(t.joint / Math.max(rows, 1), 1e-6));
  if (collects(t, limit, rows)) return collect(from);
  const hits: Hit[] = [];
  let span = Math.ceil((limit / share) * 2);
  let lo = from;
  let read = 0;
  // The last rowid as known a moment ago: the span that reaches it is read open-ended, so rows
  // imported since are walked too.
  const last = await lastRowid(db);
  while (hits.length < limit) {
    if (read >= WALK_BUDGET) return [...hits, ...(await collect(lo))].slice(0, limit);
    const hi = lo + span;
    const open = hi >= last;
    const within = open ? sql('c.rowid > ?', lo) : sql('c.rowid > ? AND c.rowid <= ?', lo, hi);
    const got = await readStretch(db, { where: [...where, within], value, orderBy: 'c.rowid', limit: limit - hits.length }, expand);
    hits.push(...got);
    if (hits.length >= limit || open) break;
    read += span;
    lo = hi;
    span *= 4;
  }
  return hits;
}

const LAST_TTL_MS = 10_000;
const lastCache = new WeakMap<Queryable, { n: number; at: number }>();

/** The highest rowid, read at most every few seconds (a walk's last span is open-ended). */
async function lastRowid(db: Queryable): Promise<number> {
  const hit = lastCache.get(db);
  if (hit && Date.now() - hit.at < LAST_TTL_MS) return hit.n;
  const n = (await db.query<{ n: number }>('SELECT coalesce(max(rowid), 0) AS n FROM companies')).rows[0].n;
  lastCache.set(db, { n, at: Date.now() });
  return n;
}
