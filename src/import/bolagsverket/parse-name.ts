// `organisationsnamn`: `name$TYPE$YYYY-MM-DD[$description]`, several joined by `|`. The
// register's name is the current company name (FORETAGSNAMN-ORGNAM), else the plain name.
const PREFERRED = ['FORETAGSNAMN-ORGNAM', 'NAMN-ORGNAM'];

export function parseName(raw: string): string {
  let best = '';
  let bestRank = Number.POSITIVE_INFINITY;
  let bestDate = '';
  for (const entry of raw.split('|')) {
    if (entry === '') continue;
    const { name, type, date } = nameEntry(entry);
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
 * One `name$TYPE$date[$description]`. A name may hold a `$` itself (`A$B Konsult AB`): the type is
 * the first part that looks like one (`…-ORGNAM`), and the name everything before it.
 */
function nameEntry(entry: string): { name: string; type: string; date: string } {
  const parts = entry.split('$');
  const at = parts.findIndex((p, i) => i > 0 && /^[A-Z_]+(-[A-Z_]+)*-ORGNAM$/.test(p));
  if (at === -1) return { name: parts[0] ?? '', type: parts[1] ?? '', date: parts[2] ?? '' };
  return { name: parts.slice(0, at).join('$'), type: parts[at], date: parts[at + 1] ?? '' };
}
