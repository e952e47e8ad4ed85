/** Lower-cases and strips diacritics, so that `Göteborg`, `goteborg` and `GÖTEBORG` compare equal. */
export function fold(value: string): string {
  return value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** Splits a comma-separated filter value into trimmed, non-empty parts. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}
