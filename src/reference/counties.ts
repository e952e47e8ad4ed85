// The table is data (data/counties.json); tsc copies an imported JSON file beside the compiled module.
import rows from './data/counties.json' with { type: 'json' };

/** Swedish counties (län) with official SCB two-digit codes. */
export interface County {
  code: string;
  name: string;
}

export const COUNTIES: readonly County[] = rows as readonly County[];

const BY_CODE = new Map(COUNTIES.map((c) => [c.code, c]));

/** Looks up a county by its two-digit code. */
export function countyByCode(code: string): County | undefined {
  return BY_CODE.get(code);
}
