// The municipality of a postal code, from its first three digits (data/postal-prefix-municipality.json).
// Approximate: a postal area can straddle a municipal border, and prefixes the reference data
// does not list take the municipality of the numerically nearest listed one.
import data from './data/postal-prefix-municipality.json' with { type: 'json' };
import { type Municipality, municipalityByCode } from './municipalities.js';

const BY_PREFIX: Readonly<Record<string, string>> = data.municipality;
const NEAREST = new Set<string>(data.nearest);

export interface PostalPlace {
  municipality: Municipality;
  /** True when the prefix is not a listed postal area of that municipality. */
  nearestOnly: boolean;
}

/** `postalCode`: five digits (a space is allowed). Undefined for a prefix outside 100–989. */
export function placeForPostalCode(postalCode: string): PostalPlace | undefined {
  const prefix = postalCode.replace(/\s/g, '').slice(0, 3);
  const code = BY_PREFIX[prefix];
  const municipality = code === undefined ? undefined : municipalityByCode(code);
  return municipality && { municipality, nearestOnly: NEAREST.has(prefix) };
}
