import { SNI_DETAILS } from './sni-details.js';
import { SNI_DIVISIONS } from './sni-divisions.js';
import { SNI_GROUPS } from './sni-groups.js';
import { SNI_SECTIONS } from './sni-sections.js';

export { SNI_SECTIONS, sectionForDivision } from './sni-sections.js';
export type { SniSection } from './sni-sections.js';
export { SNI_DIVISIONS } from './sni-divisions.js';
export type { SniDivision } from './sni-divisions.js';
export { SNI_GROUPS } from './sni-groups.js';
export type { SniGroup } from './sni-groups.js';
export { SNI_DETAILS } from './sni-details.js';
export type { SniDetail } from './sni-details.js';

const DETAIL_NAMES = new Map(SNI_DETAILS.map((d) => [d.code, d.name]));
const GROUP_NAMES = new Map(SNI_GROUPS.map((g) => [g.code, g.name]));
const DIVISION_NAMES = new Map(SNI_DIVISIONS.map((d) => [d.code, d.name]));
const SECTION_NAMES = new Map(SNI_SECTIONS.map((s) => [s.code, s.name]));

/**
 * Detailed groups per four-digit class. A class with a single detailed group
 * (code ending in 0) has the same name as that group.
 */
const DETAILS_BY_CLASS = new Map<string, string[]>();
for (const d of SNI_DETAILS) {
  const key = d.code.slice(0, 4);
  const list = DETAILS_BY_CLASS.get(key);
  if (list) list.push(d.code);
  else DETAILS_BY_CLASS.set(key, [d.code]);
}

/** Strips dots and spaces, so '43.320' and '43 320' work like '43320'. */
export function normalizeSni(code: string): string {
  return code.replace(/[\s.]/g, '');
}

/**
 * The most specific Swedish name known for an SNI 2007 code of 2, 3, 4 or 5
 * digits (a section letter A–U works too). A four-digit class with several
 * detailed groups gets its group's name. Unknown codes give undefined.
 */
export function sniName(code: string): string | undefined {
  const c = normalizeSni(code);
  if (/^[A-Ua-u]$/.test(c)) return SECTION_NAMES.get(c.toUpperCase());
  if (!/^\d{2,5}$/.test(c)) return undefined;
  switch (c.length) {
    case 5:
      return DETAIL_NAMES.get(c);
    case 4: {
      const details = DETAILS_BY_CLASS.get(c);
      if (!details) return undefined;
      if (details.length === 1) return DETAIL_NAMES.get(details[0]);
      return GROUP_NAMES.get(c.slice(0, 3));
    }
    case 3:
      return GROUP_NAMES.get(c);
    default:
      return DIVISION_NAMES.get(c);
  }
}

/** True if the code is a known five-digit SNI 2007 detailed group. */
export function isSniDetail(code: string): boolean {
  return DETAIL_NAMES.has(normalizeSni(code));
}
