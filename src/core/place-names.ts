// Resolves what users type for a county, municipality or category (a name, with or
// without diacritics, or an official code) to the canonical key stored in the register.
import { COUNTIES } from '../reference/counties.js';
import { MUNICIPALITIES } from '../reference/municipalities.js';
import { CATEGORIES } from '../reference/categories.js';
import { nameKey } from './text.js';
import { didYouMean } from './closest.js';

let countyIndex: Map<string, string> | undefined;
let municipalityIndex: Map<string, string> | undefined;
let municipalityByName: Map<string, string> | undefined;
let categoryIndex: Map<string, string> | undefined;

function countyAliases(name: string): string[] {
  const full = nameKey(name);
  const bare = full.replace(/ lan$/, '');
  return [full, bare, bare.replace(/s$/, '')];
}

export function resolveCounty(input: string): string | null {
  countyIndex ??= new Map(COUNTIES.flatMap((c) => [[c.code, c.code], ...countyAliases(c.name).map((a) => [a, c.code] as const)]));
  return countyIndex.get(nameKey(input)) ?? null;
}

/**
 * A municipality by its code or name, with or without " kommun" (and the genitive s before it:
 * "Göteborgs kommun", but "Borås kommun" is Borås). The name as written wins over the name
 * without diacritics: Håbo (0305) and Habo (0643) fold to one key.
 */
export function resolveMunicipality(input: string): string | null {
  municipalityIndex ??= new Map(MUNICIPALITIES.flatMap((m) => [[m.code, m.code], [nameKey(m.name), m.code]]));
  municipalityByName ??= new Map(MUNICIPALITIES.map((m) => [m.name.toLowerCase(), m.code]));
  const name = input.trim().toLowerCase().replace(/\s+/g, ' ');
  const bare = name.replace(/ kommun$/, '');
  for (const candidate of [name, bare, bare.replace(/s$/, '')]) {
    const code = municipalityByName.get(candidate) ?? municipalityIndex.get(nameKey(candidate));
    if (code) return code;
  }
  return null;
}

/**
 * What an unknown category slug is answered with: the slugs whose slug or name holds what was
 * typed (`bygg` → the building trades), a few at most, else where they are all listed.
 */
export function categoryHint(input: string): string {
  const typed = nameKey(input);
  const similar = typed.length < 3 ? [] : CATEGORIES.filter((c) => nameKey(c.slug).includes(typed) || nameKey(c.name).includes(typed)).map((c) => c.slug);
  const all = 'GET /categories lists them all';
  if (similar.length === 0) return `a category slug (${all})`;
  return `a category slug such as ${similar.slice(0, 4).join(', ')}${similar.length > 4 ? ', …' : ''} (${all})`;
}

/** What an unknown county is answered with, and the names it may have been meant for. */
export function countyHint(input: string): string {
  // Offered as people say them (Stockholm, Västra Götaland), which resolveCounty takes too.
  return `a county name or code such as 01${didYouMean(input, COUNTIES.map((c) => c.name.replace(/ län$/, '').replace(/s$/, '')))}`;
}

/** What an unknown municipality is answered with, and the names it may have been meant for. */
export function municipalityHint(input: string): string {
  return `a municipality name or code such as 0180${didYouMean(input.replace(/\s+kommun$/i, ''), MUNICIPALITIES.map((m) => m.name))}`;
}

export function resolveCategory(input: string): string | null {
  categoryIndex ??= new Map(CATEGORIES.map((c) => [nameKey(c.slug), c.slug]));
  return categoryIndex.get(nameKey(input)) ?? null;
}

let countyNames: Map<string, string> | undefined;
let municipalityByCode: Map<string, (typeof MUNICIPALITIES)[number]> | undefined;
let categoryBySlug: Map<string, (typeof CATEGORIES)[number]> | undefined;

export function countyName(code: string): string {
  countyNames ??= new Map(COUNTIES.map((c) => [c.code, c.name]));
  return countyNames.get(code) ?? code;
}

export function municipalityName(code: string): string {
  municipalityByCode ??= new Map(MUNICIPALITIES.map((m) => [m.code, m]));
  return municipalityByCode.get(code)?.name ?? code;
}

export function categoryName(slug: string): string {
  categoryBySlug ??= new Map(CATEGORIES.map((c) => [c.slug, c]));
  return categoryBySlug.get(slug)?.name ?? slug;
}
