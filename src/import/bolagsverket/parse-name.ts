// `organisationsnamn`: `name$TYPE$YYYY-MM-DD[$description]`, several joined by `|`. The
// register's name is the current company name (FORETAGSNAMN-ORGNAM), else the plain name.
const PREFERRED = ['FORETAGSNAMN-ORGNAM', 'NAMN-ORGNAM'];

export function parseName(raw: string): string {
  let best = '';
  let bestRank = Number.POSITIVE_INFINITY;
  let bestDate = '';
  for (const entry of raw.split('|')) {
    if (entry === '') continue;
    const parts = entry.split('$');
    const at = typeAt(parts);
    // Where no part is a type, the first three are read as name, type and date all the same.
    const name = at > 1 ? parts.slice(0, at).join('$') : parts[0];
    const type = parts[at === -1 ? 1 : at] ?? '';
    const date = parts[at === -1 ? 2 : at + 1] ?? '';
    if (name.trim() === '') continue;
    const rank = PREFERRED.indexOf(type) === -1 ? PREFERRED.length : PREFERRED.indexOf(type);
    // The latest registration wins among names of the same type.
    if (rank < bestRank || (rank === bestRank && date > bestDate)) {
      best = name.trim();
      bestRank = rank;
      bestDate = date;
    }
  }
  return best;
}

/**
 * Where the name's type is among its `$`-parts, or -1. A name may hold a `$` itself
 * (`A$B Konsult AB$FORETAGSNAMN-ORGNAM$…`): the type is the first part after it that looks like
 * one (`…-ORGNAM`), and the name everything before it.
 */
function typeAt(parts: readonly string[]): number {
  for (let i = 1; i < parts.length; i++) if (parts[i].endsWith('-ORGNAM')) return i;
  return -1;
}
