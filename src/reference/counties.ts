import { readTable } from './read-table.js';

/** Swedish counties (län) with official SCB two-digit codes. */
export interface County {
  code: string;
  name: string;
}

export const COUNTIES: readonly County[] = readTable<County>('counties');

const BY_CODE = new Map(COUNTIES.map((c) => [c.code, c]));

/** Looks up a county by its two-digit code. */
export function countyByCode(code: string): County | undefined {
  return BY_CODE.get(code);
}
