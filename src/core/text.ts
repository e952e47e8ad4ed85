/** Lower-cases and strips diacritics, so that `Göteborg`, `goteborg` and `GÖTEBORG` compare equal. */
export function fold(value: string): string {
  // Fast path for the common case (ASCII and å ä ö é ü): the register folds a million names.
  if (SIMPLE.test(value)) return value.toLowerCase().replace(SWEDISH, (ch) => SWEDISH_BASE[ch]).trim();
  return value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

const SIMPLE = /^[\x20-\x7eåäöéüÅÄÖÉÜ]*$/;

/**
 * A name as users type it, for matching against a closed set (counties, municipalities,
 * categories, enum values): folded, and a space, hyphen or underscore between two words is one
 * space, so that `vastra-gotaland`, `Västra Götaland` and `ekonomisk förening` /
 * `ekonomisk_förening` meet. A leading `-` (a descending sort) is kept.
 */
export function nameKey(value: string): string {
  return fold(value).replace(/(?<=[^\s_-])[\s_-]+(?=[^\s_-])/g, ' ');
}

/** ASCII and the Swedish letters: text that folds to one byte a character, without NFKD. */
export function isPlainText(value: string): boolean {
  return SIMPLE.test(value);
}

/** C0 controls and DEL: no stored value holds one, and PostgreSQL's text cannot hold NUL. */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const SWEDISH = /[åäöéü]/g;
const SWEDISH_BASE: Record<string, string> = { å: 'a', ä: 'a', ö: 'o', é: 'e', ü: 'u' };

/** Splits a comma-separated filter value into trimmed, non-empty parts. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * A value someone typed, quoted in a message about it: whole when short, else its start and how
 * long it was, so that a 100,000-character filter gets a one-line error, not itself back.
 */
export function quoted(value: string, max = 60): string {
  const chars = [...value];
  return chars.length <= max ? `"${value}"` : `"${chars.slice(0, max).join('')}…" (${chars.length} characters)`;
}
