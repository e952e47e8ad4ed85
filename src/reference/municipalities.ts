// The table is data (data/municipalities.json); tsc copies an imported JSON file beside the compiled module.
import rows from './data/municipalities.json' with { type: 'json' };

/**
 * A postal area: the first three digits of real postal codes used in a
 * municipality, with the post town (postort) written in upper case as the
 * post writes it.
 */
export interface PostalArea {
  prefix: string;
  city: string;
}

/**
 * A Swedish municipality (kommun). `code` is the official four-digit SCB code,
 * whose first two digits are the county code. `lat`/`lng` is the approximate
 * centre (the main town) and `population` a rounded approximation, used to
 * weight how many companies the generator puts there.
 */
export interface Municipality {
  code: string;
  name: string;
  countyCode: string;
  lat: number;
  lng: number;
  population: number;
  postal: readonly PostalArea[];
}

/** All 290 Swedish municipalities, ordered by code. */
export const MUNICIPALITIES: readonly Municipality[] = rows as readonly Municipality[];

const BY_CODE = new Map(MUNICIPALITIES.map((m) => [m.code, m]));

/** Looks up a municipality by its four-digit code. */
export function municipalityByCode(code: string): Municipality | undefined {
  return BY_CODE.get(code);
}

/** The municipalities of one county, by two-digit county code. */
export function municipalitiesInCounty(countyCode: string): Municipality[] {
  return MUNICIPALITIES.filter((m) => m.countyCode === countyCode);
}
