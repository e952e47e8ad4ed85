// The table is data (data/sni-details.json); tsc copies an imported JSON file beside the compiled module.
import rows from './data/sni-details.json' with { type: 'json' };

/**
 * An SNI 2007 detailed group (detaljgrupp, five digits) with its Swedish name.
 * `weight` is a relative frequency: how common companies with this code as
 * primary activity are in Sweden (roughly hundreds of companies; 1 = rare).
 */
export interface SniDetail {
  code: string;
  name: string;
  weight: number;
}

/** All 821 SNI 2007 detailed groups, ordered by code. */
export const SNI_DETAILS: readonly SniDetail[] = rows as readonly SniDetail[];
