// Free text (`q`): what matches and how well. One definition, in JavaScript, decides both for
// every plan; the full-text index only finds candidates fast.
//
// A query is folded (lower case, no diacritics) and split into words. A company matches when
// every word matches
//   - a word of its name, or of its org nr (`5566778899`, `556677`, `8899`), exactly; the
//     last word also as a prefix (of a name word; a number only as a prefix of the org nr), or
//   - a word of its industry (the names of its category and SNI codes, and the business
//     description Bolagsverket's file gives), the same way.
// Relevance, best first, ties by id:
//   1 the name begins with the query (then by name),
//   2 every word is a word of the name or org nr,
//   3 every word is in the name or org nr, the last as a prefix,
//   4 some word matches only through the industry.
import { MAX_WORD_LENGTH } from '../../../core/stored-text.js';
import { fold } from '../../../core/text.js';
import { CATEGORIES } from '../../../reference/categories.js';
import { SNI_DETAILS } from '../../../reference/sni.js';

const WORD = /[\p{L}\p{N}]+/gu;
const ORG_NR_WITH_HYPHEN = /(?<!\p{N})(\d{6})-(\d{1,4})(?!\p{N})/gu;
const DIGITS = /^\d+$/;

export const TIER_STARTS_WITH = 1;
export const TIER_EXACT = 2;
export const TIER_PREFIX = 3;
export const TIER_INDUSTRY = 4;

/** Industry that a word names: SNI detail codes and category slugs. */
export interface IndustryMatch {
  codes: ReadonlySet<string>;
  categories: ReadonlySet<string>;
}

export interface TextWord {
  text: string;
  /** The last word matches as a prefix. */
  prefix: boolean;
  /** All digits: as a prefix it matches only the org nr. */
  digits: boolean;
  industry: IndustryMatch;
}

export interface TextQuery {
  /** The query as given (the cache key and the SQL function argument). */
  raw: string;
  /** Folded, spaces and control characters collapsed to one space: tier 1 is a name that begins with this. */
  folded: string;
  words: TextWord[];
}

const parsed = new Map<string, TextQuery>();

export function parseTextQuery(q: string): TextQuery {
  let tq = parsed.get(q);
  if (tq) return tq;
  // Control characters count as spaces, as between words: no name holds one, and PostgreSQL's
  // text cannot hold NUL at all.
  const folded = fold(q).replace(/[\s\p{Cc}]+/gu, ' ').trim();
  // A word longer than any name's (folding can make one character of q eighteen) matches nothing,
  // so neither does the query; PostgreSQL's tsquery refuses a word of 2 kB.
  // An org nr typed with its hyphen is one number, also cut short as the last word (`556009-43`):
  // split at the hyphen, its last digits were a prefix of nothing.
  const all: string[] = folded.replace(ORG_NR_WITH_HYPHEN, '$1$2').match(WORD) ?? [];
  // A word given twice asks nothing more (the last, a prefix, stays apart): 66 words of one
  // cost PostgreSQL 66 conditions a row and a second a page.
  const texts = all.filter((t, i) => i === all.length - 1 || all.indexOf(t) === i);
  if (texts.some((t) => t.length > MAX_WORD_LENGTH)) texts.length = 0;
  const words = texts.map((text, i): TextWord => {
    const prefix = i === texts.length - 1;
    const digits = DIGITS.test(text);
    return { text, prefix, digits, industry: industryFor(text, prefix && !digits) };
  });
  tq = { raw: q, folded, words };
  if (parsed.size >= 2000) parsed.delete(parsed.keys().next().value as string);
  parsed.set(q, tq);
  return tq;
}

/** The tier of a company for the query, 0 when it does not match. */
export function tierOf(tq: TextQuery, nameSort: string, orgNr: string, categorySlug: string, sniCodes: string, description = ''): number {
  const words = tq.words;
  if (words.length === 0) return 0;
  let nameWords: string[] | null = null;
  let allExact = true;
  let allName = true;
  let codes: string[] | null = null;
  let descriptionWords: string[] | null = null;
  for (const w of words) {
    const t = w.text;
    // A word that is no substring of the name or org nr can only match through the industry:
    // most rows a walk tests are settled here, without splitting the name into words.
    if (nameSort.includes(t) || (w.digits && orgNr.includes(t))) {
      nameWords ??= nameSort.match(WORD) ?? [];
      if (nameWords.includes(t) || isOrgWord(orgNr, t)) continue;
      if (w.prefix && (w.digits ? orgNr.startsWith(t) : nameWords.some((n) => n.startsWith(t)))) {
        allExact = false;
        continue;
      }
    }
    allExact = false;
    allName = false;
    if (w.industry.categories.has(categorySlug)) continue;
    if (w.industry.codes.size > 0) {
      codes ??= sniCodes ? sniCodes.split(',') : [];
      if (codes.some((c) => w.industry.codes.has(c))) continue;
    }
    if (description === '') return 0;
    descriptionWords ??= fold(description).match(WORD) ?? [];
    if (!descriptionWords.some((d) => d === t || (w.prefix && !w.digits && d.startsWith(t)))) return 0;
  }
  if (allName && nameSort.startsWith(tq.folded)) return TIER_STARTS_WITH;
  if (allExact) return TIER_EXACT;
  return allName ? TIER_PREFIX : TIER_INDUSTRY;
}

/** The words of an org nr: all ten digits, the first six and the last four. */
function isOrgWord(orgNr: string, t: string): boolean {
  return orgNr === t || (t.length === 6 && orgNr.startsWith(t)) || (t.length === 4 && orgNr.endsWith(t));
}

/** The sort value of relevance: ascending is best first (tier, then name in tier 1). */
export function relevanceValue(tier: number, nameSort: string): string {
  return tier === TIER_STARTS_WITH ? `1${nameSort}` : String(tier);
}

/** The tier encoded in a relevance value. */
export function tierOfValue(value: string): number {
  return Number(value[0]);
}

// --- The industry dictionary: words of category and SNI names → codes and slugs. -------------

interface Dictionary {
  words: string[];
  byWord: Map<string, { codes: string[]; categories: string[] }>;
}

let dictionary: Dictionary | undefined;

function buildDictionary(): Dictionary {
  const byWord = new Map<string, { codes: string[]; categories: string[] }>();
  const entry = (w: string) => {
    let e = byWord.get(w);
    if (!e) byWord.set(w, (e = { codes: [], categories: [] }));
    return e;
  };
  for (const d of SNI_DETAILS) for (const w of new Set(fold(d.name).match(WORD) ?? [])) entry(w).codes.push(d.code);
  for (const c of CATEGORIES) for (const w of new Set(fold(c.name).match(WORD) ?? [])) entry(w).categories.push(c.slug);
  return { words: [...byWord.keys()].sort(), byWord };
}

const industryCache = new Map<string, IndustryMatch>();

export function industryFor(word: string, prefix: boolean): IndustryMatch {
  const key = `${prefix ? '*' : '='}${word}`;
  let m = industryCache.get(key);
  if (m) return m;
  dictionary ??= buildDictionary();
  const codes = new Set<string>();
  const categories = new Set<string>();
  const add = (w: string) => {
    const e = dictionary!.byWord.get(w);
    if (!e) return;
    for (const c of e.codes) codes.add(c);
    for (const s of e.categories) categories.add(s);
  };
  if (prefix) {
    const words = dictionary.words;
    let lo = 0;
    let hi = words.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (words[mid] < word) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < words.length && words[i].startsWith(word); i++) add(words[i]);
  } else {
    add(word);
  }
  m = { codes, categories };
  if (industryCache.size >= 5000) industryCache.delete(industryCache.keys().next().value as string);
  industryCache.set(key, m);
  return m;
}
