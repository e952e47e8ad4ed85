import { readTable } from './read-table.js';

/** SNI 2007 divisions (huvudgrupper, two digits) with Swedish names. */
export interface SniDivision {
  code: string;
  name: string;
}

export const SNI_DIVISIONS: readonly SniDivision[] = readTable<SniDivision>('sni-divisions');
