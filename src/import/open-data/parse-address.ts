// Postal addresses as `$`-joined parts. The real files put the town before the postcode
// (`Box 5305$$STOCKHOLM$10247$SE-LAND`), the documentation the other way round: the postcode
// is found by its five digits, not by its position.
import type { PostalAddress } from './source-row.js';

const POSTCODE = /^(\d{3}) ?(\d{2})$/;

/** Null when no part is a Swedish postcode (abroad, or missing). */
export function parseDollarAddress(raw: string): PostalAddress | null {
  if (raw === '') return null;
  const parts = raw.split('$').map((p) => p.trim());
  const street = parts[0] ?? '';
  const co = parts[1] ?? '';
  let postalCode = '';
  let city = '';
  for (let i = 2; i < parts.length; i++) {
    const p = parts[i];
    const m = POSTCODE.exec(p);
    if (m && !postalCode) postalCode = m[1] + m[2];
    else if (p && !/-LAND$/.test(p) && p !== 'null' && !city) city = p;
  }
  if (!postalCode) return null;
  return { street: co && co !== 'null' ? `${careOf(co)}, ${street}`.replace(/, $/, '') : street, postalCode, city: city.toUpperCase() };
}

/** SCB's separate columns: the postcode may carry a space. */
export function postalAddress(street: string, postcode: string, city: string): PostalAddress | null {
  const m = POSTCODE.exec(postcode.trim());
  if (!m) return null;
  return { street, postalCode: m[1] + m[2], city: city.toUpperCase() };
}

/** A c/o part as the street's first words: `c/o` before it unless the source wrote one. */
export function careOf(co: string): string {
  return /^c\/o\b/i.test(co) ? co : `c/o ${co}`;
}
