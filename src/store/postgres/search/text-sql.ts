// Free text (`q`) as SQL. What matches and how well is defined once, in
// src/store/sqlite/search/text-query.ts (parseTextQuery, the tiers); this states the same
// in SQL over the `words` column, which holds exactly the name words tierOf reads (company-row.ts),
// and over org_nr for the org nr's words, so both stores find and rank alike:
//   a word matches a name or org nr word exactly; the last word also as a prefix (a number
//   only as a prefix of the org nr); or any word matches through the industry: its category's
//   or SNI codes' names, or a word of the business description (in `words` with DESCRIPTION_MARK,
//   exactly; the last also as a prefix unless a number).
//   tier 1 every word in the name or org nr, and the folded name begins with the query
//   tier 2 every word exactly in the name or org nr
//   tier 3 every word in the name or org nr, the last as a prefix
//   tier 4 the rest (some word only through the industry)
// The relevance value is that of relevanceValue: '1' + name for tier 1, else the tier's digit.
import { prefixEnd } from '../../sqlite/search/predicates.js';
import { DESCRIPTION_MARK } from '../company-row.js';
import type { TextQuery, TextWord } from '../../sqlite/search/text-query.js';
import { and, placeholders, type Sql, sql } from './sql.js';

export interface TextSql {
  /** The company matches at all (tested on rows in hand: no index scan). */
  match: Sql;
  /**
   * What every match has that an index finds: the words that cannot match through the industry
   * (the last as a prefix only from three letters: a short prefix stands for thousands of index
   * keys). `true` when there is none.
   */
  candidates: Sql;
  /** Every word in the name or org nr, the last as a prefix (tiers 1–3; tested on rows in hand). */
  inName: Sql;
  /** Every word exactly in the name or org nr (tier 2, and tier 1 rows that are also exact). */
  exact: Sql;
  /** The folded name begins with the query, as an index range and exactly. */
  startsWith: Sql;
  /**
   * What every row of tiers 1–3 has that the full-text index finds cheaply: the name words but a
   * last one shorter than three letters (as candidates, without the industry's exemption), and
   * the words it names. `true` when there is none.
   */
  nameCandidates: Sql;
  nameCandidateWords: TextWord[];
  candidateWords: TextWord[];
  /** inName and match as an index can answer them (to collect a few rows from the full-text index). */
  inNameIndexed: Sql;
  /**
   * A query of rowids (column `rowid`) holding every row of inName, read from indexes alone, or
   * null. For one number as a prefix (q=55661): the org nr range is thousands of companies in
   * random rowid order; their rowids come from an index-only scan (companies_org_nr carries the
   * rowid), sorted, and only the page's rows are then read, instead of every row in the range.
   */
  nameRowids: Sql | null;
  matchIndexed: Sql;
  /** Industry matches (category, SNI codes) exist for some word. */
  industry: boolean;
  /**
   * What every row of tier 4 has when no word matches through a category or SNI code: one
   * word of the business description (an index lookup of the marked words, few or none).
   */
  describedBy: Sql;
  /** The words whose description rows describedBy looks up. */
  describedWords: TextWord[];
  /** Per word, its matches (name, org nr or industry) as an index finds them. */
  wordMatches: Sql[];
  /** The relevance value of a matching row. */
  relevance: Sql;
}

const lexeme = (w: TextWord) => `'${w.text}'`;
/** The word in the name, or as a word of the business description (the last also as a prefix, but a number). */
const anyLexeme = (w: TextWord, asPrefix: boolean) => {
  const p = asPrefix ? ':*' : '';
  return `('${w.text}'${p} | '${DESCRIPTION_MARK}${w.text}'${w.digits ? '' : p})`;
};
/** The word in the business description. */
const descriptionLexeme = (w: TextWord) => `'${DESCRIPTION_MARK}${w.text}'${w.prefix && !w.digits ? ':*' : ''}`;

function tsquery(words: readonly TextWord[], lastAsPrefix: boolean): string {
  return words.map((w, i) => (lastAsPrefix && i === words.length - 1 ? `${lexeme(w)}:*` : lexeme(w))).join(' & ');
}

/** A number that is a word of the org nr: all ten digits, the first six or the last four. */
function orgWord(w: TextWord): Sql | null {
  if (!w.digits) return null;
  if (w.text.length === 10) return sql('c.org_nr = ?', w.text);
  if (w.text.length === 6) return sql('c.org_nr >= ? AND c.org_nr < ?', w.text, prefixEnd(w.text));
  if (w.text.length === 4) return sql('right(c.org_nr, 4) = ?', w.text);
  return null;
}

function or(parts: readonly (Sql | null)[]): Sql {
  const present = parts.filter((p): p is Sql => p !== null);
  return { sql: present.map((p) => `(${p.sql})`).join(' OR '), params: present.flatMap((p) => p.params) };
}

/** The word exactly: a word of the name or of the org nr. */
function exactWord(w: TextWord): Sql {
  return or([sql('c.words @@ ?::tsquery', lexeme(w)), orgWord(w)]);
}

/** The word in the name or org nr; the last also as a prefix (a number: of the org nr only). */
function wordInName(w: TextWord): Sql {
  if (!w.prefix) return exactWord(w);
  if (w.digits) return or([exactWord(w), sql('c.org_nr >= ? AND c.org_nr < ?', w.text, prefixEnd(w.text))]);
  return sql('c.words @@ ?::tsquery', `${lexeme(w)}:*`);
}

function wordInIndustry(w: TextWord): Sql | null {
  const parts: Sql[] = [];
  parts.push(sql('c.words @@ ?::tsquery', descriptionLexeme(w)));
  const cats = [...w.industry.categories];
  if (cats.length) parts.push(sql(`c.category_slug IN (${placeholders(cats.length)})`, ...cats));
  if (w.industry.codes.size) parts.push(sql('c.sni && ?::text[]', `{${[...w.industry.codes].join(',')}}`));
  return parts.length ? or(parts) : null;
}

export function textSql(tq: TextQuery): TextSql {
  const words = tq.words;
  const last = words[words.length - 1];
  // Without numbers, all words together are one full-text query (one index scan).
  const numbers = words.some((w) => w.digits);
  const inName = numbers ? and(words.map(wordInName)) : sql('c.words @@ ?::tsquery', tsquery(words, true));
  const exact = numbers ? and(words.map(exactWord)) : sql('c.words @@ ?::tsquery', tsquery(words, false));
  const startsWith = sql('c.name_sort >= ? AND c.name_sort < ? AND starts_with(c.name_sort, ?)', tq.folded, prefixEnd(tq.folded), tq.folded);
  const industries = words.map(wordInIndustry);
  // Categories and SNI codes; every word can also match through the business description.
  const industry = words.some((w) => w.industry.codes.size + w.industry.categories.size > 0);
  const wordMatches = words.map((w, i) => {
    const name = wordInName(w);
    const ind = industries[i];
    return ind ? or([name, ind]) : name;
  });
  const noIndustry = (w: TextWord) => w.industry.codes.size + w.industry.categories.size === 0;
  // Without numbers or industry words, every word in the name or the description: one query.
  const match = !numbers && !industry ? sql('c.words @@ ?::tsquery', words.map((w, i) => anyLexeme(w, w.prefix && i === words.length - 1)).join(' & ')) : and(wordMatches);
  const plain = words.filter((w) => noIndustry(w) && !w.digits && !(w.prefix && w.text.length < 3));
  const numbersOnly = words.filter((w) => noIndustry(w) && w.digits);
  const candidates = and([
    ...(plain.length ? [sql('c.words @@ ?::tsquery', plain.map((w, i) => anyLexeme(w, w.prefix && i === plain.length - 1)).join(' & '))] : []),
    ...numbersOnly.map((w) => or([wordInName(w), sql('c.words @@ ?::tsquery', descriptionLexeme(w))])),
  ]);
  // Every word: the one that is not in the name may be any of them (the marked words are few).
  const described = words;
  const describedBy = described.length ? sql('c.words @@ ?::tsquery', described.map(descriptionLexeme).join(' | ')) : sql('true');
  const named = words.filter((w) => !w.digits && !(w.prefix && w.text.length < 3));
  const nameCandidates = named.length ? sql('c.words @@ ?::tsquery', tsquery(named, named[named.length - 1].prefix)) : sql('true');
  const relevance: Sql = {
    sql: `(CASE WHEN (${inName.sql}) AND (${startsWith.sql}) THEN '1' || c.name_sort WHEN ${exact.sql} THEN '2' WHEN ${inName.sql} THEN '3' ELSE '4' END) COLLATE "C"`,
    params: [...inName.params, ...startsWith.params, ...exact.params, ...inName.params],
  };
  return {
    match: unindexed(match),
    candidates,
    inName: unindexed(inName),
    inNameIndexed: inName,
    nameRowids: words.length === 1 && last.digits && last.prefix ? numberRowids(last) : null,
    matchIndexed: match,
    nameCandidates,
    nameCandidateWords: named,
    candidateWords: plain,
    wordMatches,
    exact,
    startsWith,
    industry,
    describedBy,
    describedWords: described,
    relevance,
  };
}

/**
 * The rowids of wordInName(w) for a number that is the last word (a prefix), one index per part
 * (UNION: a row may be in two). The org nr's ten and six digits are in the prefix range.
 */
function numberRowids(w: TextWord): Sql {
  const parts = [sql('SELECT rowid FROM companies WHERE words @@ ?::tsquery', lexeme(w))];
  if (w.text.length === 4) parts.push(sql('SELECT rowid FROM companies WHERE right(org_nr, 4) = ?', w.text));
  parts.push(sql('SELECT rowid FROM companies WHERE org_nr >= ? AND org_nr < ?', w.text, prefixEnd(w.text)));
  return { sql: parts.map((p) => p.sql).join(' UNION '), params: parts.flatMap((p) => p.params) };
}

/**
 * The same test, in a form no index answers: a prefix query of the full-text index merges the
 * lists of every word with that prefix, far dearer than testing the rows another index yields.
 * (IS TRUE keeps the planner's estimate of the test itself.)
 */
function unindexed(s: Sql): Sql {
  return { sql: `(${s.sql}) IS TRUE`, params: s.params };
}
