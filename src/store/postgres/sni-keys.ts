// The keys of `companies.sni`, the column the GIN index finds an SNI prefix by: each code's
// division (2 digits), class (4) and the code itself (5; codes are always five digits,
// core/company.ts). The `sni` filter's prefix is then one key, or ten (1 or 3 digits).
// The codes alone, a prefix expanded to every code in use under it, cost 30-200 keys per
// search, and the same array tested against each row in hand: 1 s for sni=4 on 300,000
// companies, where one key of a few elements takes milliseconds. Migration 7 spells the
// same keys in SQL for registers written before.

/** The index keys of a company's codes (its division, class and code, each once). */
export function sniKeys(codes: readonly string[]): string[] {
  const keys: string[] = [];
  for (const code of codes) {
    for (const key of [code.slice(0, 2), code.slice(0, 4), code]) if (!keys.includes(key)) keys.push(key);
  }
  return keys;
}

/** The keys that stand for code prefixes of 1 to 5 digits (validated by the `sni` filter). */
export function sniFilterKeys(prefixes: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const p of prefixes) {
    if (p.length === 1 || p.length === 3) for (let d = 0; d <= 9; d++) keys.add(p + d);
    else keys.add(p);
  }
  return [...keys];
}
