import { readTable } from './read-table.js';

/** SNI 2007 sections (avdelningar A–U) with Swedish names and their two-digit divisions. */
export interface SniSection {
  code: string;
  name: string;
  divisions: readonly string[];
}

export const SNI_SECTIONS: readonly SniSection[] = readTable<SniSection>('sni-sections');

/** The section letter a two-digit division belongs to. */
export function sectionForDivision(division: string): SniSection | undefined {
  return SNI_SECTIONS.find((s) => s.divisions.includes(division));
}
