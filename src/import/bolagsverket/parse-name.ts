// `organisationsnamn`: `name$TYPE$YYYY-MM-DD[$description]`, several joined by `|`. The
// register's name is the current company name (FORETAGSNAMN-ORGNAM), else the plain name.
const PREFERRED = ['FORETAGSNAMN-ORGNAM', 'NAMN-ORGNAM'];

export function parseName(raw: string): string {
  let best = '';
  let bestRank = Number.POSITIVE_INFINITY;
  let bestDate = '';
  for (const entry of raw.split('|')) {
    if (entry === '') continue;
    const [name = '', type = '', date = ''] = entry.split('$');
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
