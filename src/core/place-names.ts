// Resolves what users type for a county, municipality or category (a name, with or
// without diacritics, or an official code) to the canonical key stored in the register.
import { COUNTIES } from '../reference/counties.js';
import { MUNICIPALITIES } from '../reference/municipalities.js';
import { CATEGORIES } from '../reference/categories.js';
import { fold } from './text.js';

let countyIndex: Map<string, string> | undefined;
let municipalityIndex: Map<string, string> | undefined;
let categoryIndex: Map<string, string> | undefined;

function countyAliases(name: string): string[] {
  const full = fold(name);
  const bare = full.replace(/ lan$/, '');
  return [full, bare, bare.replace(/s$/, '')];
}

export function resolveCounty(input: string): string | null {
  countyIndex ??= new Map(COUNTIES.flatMap((c) => [[c.code, c.code], ...countyAliases(c.name).map((a) => [a, c.code] as const)]));
  return countyIndex.get(fold(input)) ?? null;
}

export function resolveMunicipality(input: string): string | null {
  municipalityIndex ??= new Map(MUNICIPALITIES.flatMap((m) => [[m.code, m.code], [fold(m.name), m.code]]));
  return municipalityIndex.get(fold(input).replace(/s? kommun$/, '')) ?? municipalityIndex.get(fold(input)) ?? null;
}

export function resolveCategory(input: string): string | null {
  categoryIndex ??= new Map(CATEGORIES.map((c) => [fold(c.slug), c.slug]));
  return categoryIndex.get(fold(input)) ?? null;
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
