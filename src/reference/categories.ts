// The table is data (data/categories.json); tsc copies an imported JSON file beside the compiled module.
import rows from './data/categories.json' with { type: 'json' };
import { normalizeSni } from './sni.js';

/**
 * A category for end users, built on SNI 2007. `sni_prefixes` are the SNI code
 * prefixes of the category's own area (2–5 digits); when searching, the search
 * layer unions a parent's prefixes with those of all its descendants.
 */
export interface Category {
  slug: string;
  name: string;
  parent: string | null;
  sni_prefixes: readonly string[];
}

/** The category tree in display order, each parent before its children (data/categories.json). */
export const CATEGORIES: readonly Category[] = rows as readonly Category[];

const BY_SLUG = new Map(CATEGORIES.map((c) => [c.slug, c]));
const CHILDREN = new Map<string, Category[]>();
for (const c of CATEGORIES) {
  if (c.parent === null) continue;
  const list = CHILDREN.get(c.parent);
  if (list) list.push(c);
  else CHILDREN.set(c.parent, [c]);
}

/** Prefixes sorted longest first; on equal length a child category beats its parent. */
const PREFIX_INDEX: readonly { prefix: string; category: Category }[] = CATEGORIES.flatMap((category) =>
  category.sni_prefixes.map((prefix) => ({ prefix, category })),
).sort((a, b) => b.prefix.length - a.prefix.length || Number(a.category.parent === null) - Number(b.category.parent === null));

const FALLBACK = BY_SLUG.get('ovrigt') as Category;

/** Looks up a category by slug. */
export function categoryBySlug(slug: string): Category | undefined {
  return BY_SLUG.get(slug);
}

/** The top-level categories, in display order. */
export function topCategories(): Category[] {
  return CATEGORIES.filter((c) => c.parent === null);
}

/** The direct children of a category. */
/**
 * The most specific category for an SNI code (any length, dots allowed): the
 * one whose prefix matches the code with the longest prefix. Codes that match
 * nothing fall under 'ovrigt'.
 */
const categoryBySniCache = new Map<string, Category>();

export function categoryForSni(code: string): Category {
  let found = categoryBySniCache.get(code);
  if (!found) {
    found = findCategoryForSni(code);
    if (categoryBySniCache.size < 10_000) categoryBySniCache.set(code, found);
  }
  return found;
}

function findCategoryForSni(code: string): Category {
  const c = normalizeSni(code);
  for (const entry of PREFIX_INDEX) {
    if (c.startsWith(entry.prefix)) return entry.category;
  }
  return FALLBACK;
}

/** The slug itself and the slugs of all its descendants (empty if unknown). */
export function descendantSlugs(slug: string): string[] {
  if (!BY_SLUG.has(slug)) return [];
  const out: string[] = [];
  const stack = [slug];
  while (stack.length > 0) {
    const s = stack.pop() as string;
    out.push(s);
    for (const child of CHILDREN.get(s) ?? []) stack.push(child.slug);
  }
  return out;
}

/** All SNI prefixes for a category and its descendants, as the search layer uses them. */
export function sniPrefixesForCategory(slug: string): string[] {
  const set = new Set<string>();
  for (const s of descendantSlugs(slug)) for (const p of BY_SLUG.get(s)?.sni_prefixes ?? []) set.add(p);
  return [...set];
}
