// Municipality, county and location of a postal address: from the postcode's prefix, the
// location being the municipality's centre (approximate, see docs/open-data-import.md).
import { countyName, municipalityName } from '../../core/place-names.js';
import { placeForPostalCode } from '../../reference/postal-municipality.js';
import type { PostalAddress } from './source-row.js';

export interface Place {
  address: { street: string; postal_code: string; city: string };
  municipality: string;
  municipality_code: string;
  county: string;
  county_code: string;
  location: { lat: number; lng: number } | null;
}

export function placeOf(a: PostalAddress): Place {
  const postal = `${a.postalCode.slice(0, 3)} ${a.postalCode.slice(3)}`;
  const found = placeForPostalCode(a.postalCode);
  if (!found) return { address: { street: a.street, postal_code: postal, city: a.city }, ...NOWHERE };
  const m = found.municipality;
  return {
    address: { street: a.street, postal_code: postal, city: a.city },
    municipality: municipalityName(m.code),
    municipality_code: m.code,
    county: countyName(m.countyCode),
    county_code: m.countyCode,
    location: { lat: m.lat, lng: m.lng },
  };
}

/** A company without a Swedish postal address: no municipality, county or location. */
export const NOWHERE = { municipality: '', municipality_code: '', county: '', county_code: '', location: null };
