// The table is data (data/sni-divisions.json); tsc copies an imported JSON file beside the compiled module.
import rows from './data/sni-divisions.json' with { type: 'json' };

/** SNI 2007 divisions (huvudgrupper, two digits) with Swedish names. */
export interface SniDivision {
  code: string;
  name: string;
}

export const SNI_DIVISIONS: readonly SniDivision[] = rows as readonly SniDivision[];
