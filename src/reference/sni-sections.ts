// The table is data (data/sni-sections.json); tsc copies an imported JSON file beside the compiled module.
import rows from './data/sni-sections.json' with { type: 'json' };

/** SNI 2007 sections (avdelningar A–U) with Swedish names and their two-digit divisions. */
export interface SniSection {
  code: string;
  name: string;
  divisions: readonly string[];
}

export const SNI_SECTIONS: readonly SniSection[] = rows as readonly SniSection[];

/** The section letter a two-digit division belongs to. */
export function sectionForDivision(division: string): SniSection | undefined {
  return SNI_SECTIONS.find((s) => s.divisions.includes(division));
}
