// The table is data (data/sni-groups.json); tsc copies an imported JSON file beside the compiled module.
import rows from './data/sni-groups.json' with { type: 'json' };

/** SNI 2007 groups (grupper, three digits) with Swedish names. */
export interface SniGroup {
  code: string;
  name: string;
}

export const SNI_GROUPS: readonly SniGroup[] = rows as readonly SniGroup[];
