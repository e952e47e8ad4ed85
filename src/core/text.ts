/** Lower-cases and strips diacritics, so that `Göteborg`, `goteborg` and `GÖTEBORG` compare equal. */
export function fold(value: string): string {
  // Fast path for the common case (ASCII and å ä ö é ü): the register folds a million names.
  if (SIMPLE.test(value)) return value.toLowerCase().replace(SWEDISH, (ch) => SWEDISH_BASE[ch]).trim();
  return value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

const SIMPLE = /^[\x20-\x7eåäöéüÅÄÖÉÜ]*$/;
const SWEDISH = /[åäöéü]/g;
const SWEDISH_BASE: Record<string, string> = { å: 'a', ä: 'a', ö: 'o', é: 'e', ü: 'u' };

/** Splits a comma-separated filter value into trimmed, non-empty parts. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}
