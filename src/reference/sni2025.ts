// SNI 2025 (NACE Rev. 2.1), the coding of SCB's bulk file since 2025, as far as the register
// needs it: sections and divisions with names, and the category of a code. The category tree
// is built on SNI 2007 prefixes; most divisions kept their number and meaning, and the few
// 2025 prefixes that moved are looked up under their SNI 2007 counterpart (data/sni2025.json,
// docs/open-data-import.md lists the differences).
import data from './data/sni2025.json' with { type: 'json' };
import { type Category, categoryForSni } from './categories.js';

export interface Sni2025Section {
  code: string;
  name: string;
  divisions: readonly string[];
}
export interface Sni2025Division {
  code: string;
  name: string;
}

export const SNI2025_SECTIONS: readonly Sni2025Section[] = data.sections;
export const SNI2025_DIVISIONS: readonly Sni2025Division[] = data.divisions;

const DIVISION_NAMES = new Map(SNI2025_DIVISIONS.map((d) => [d.code, d.name]));
const SECTION_OF_DIVISION = new Map(SNI2025_SECTIONS.flatMap((s) => s.divisions.map((d) => [d, s] as const)));
const TO_2007: Readonly<Record<string, string>> = data.to_sni2007_prefix;
const MOVED = Object.keys(TO_2007).sort((a, b) => b.length - a.length);

export function sni2025DivisionName(code: string): string | undefined {
  return DIVISION_NAMES.get(code.slice(0, 2));
}

export function sni2025Section(code: string): Sni2025Section | undefined {
  return SECTION_OF_DIVISION.get(code.slice(0, 2));
}

/**
 * The category of an SNI 2025 code (any length): that of its SNI 2007 counterpart prefix. The
 * prefix alone: the digits after a moved prefix mean something else under the other one (47.91,
 * SNI 2025's intermediation of retail sale, is no 47.1 groceries).
 */
export function categoryForSni2025(code: string): Category {
  const moved = MOVED.find((p) => code.startsWith(p));
  return categoryForSni(moved ? TO_2007[moved] : code);
}
