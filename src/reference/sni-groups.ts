import { readTable } from './read-table.js';

/** SNI 2007 groups (grupper, three digits) with Swedish names. */
export interface SniGroup {
  code: string;
  name: string;
}

export const SNI_GROUPS: readonly SniGroup[] = readTable<SniGroup>('sni-groups');
