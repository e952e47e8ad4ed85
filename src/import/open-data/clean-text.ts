// Free text as the open-data files deliver it: NUL bytes, control characters, stray spaces and
// the literal placeholder `null` all occur; what is left is the value, or '' for none.

// Tabs and line breaks inside a field become spaces; every other control character goes.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const SPACING = /[\t\r\n]+/g;
// Marks that reorder or hide text: bidi embeddings, overrides and isolates, the zero-width space,
// the word joiner, a BOM inside a field. In a name "Omvänd \u202egnp.exe" shows as "exe.png"
// wherever the API's JSON is shown; no source writes them as part of a name. (Joiners that
// shape letters or emoji, and the left-to-right and right-to-left marks, stay.)
const MARKS = '\\u200B\\u202A-\\u202E\\u2060\\u2066-\\u2069\\uFEFF';
const INVISIBLE = new RegExp(`[${MARKS}]`, 'g');

const UNCLEAN = new RegExp(`[\\u0000-\\u001F\\u007F${MARKS}]`);
const UNCLEAN_BUT_TAB = new RegExp(`[\\u0000-\\u0008\\u000A-\\u001F\\u007F${MARKS}]`);

export function cleanText(raw: string | undefined): string {
  if (raw === undefined) return '';
  return UNCLEAN.test(raw) ? plain(raw.replace(CONTROL, '').replace(INVISIBLE, '').replace(SPACING, ' ')) : plain(raw);
}

/**
 * The cleaner for the fields of one line: when the whole line holds no control character nor
 * invisible mark (most do not), none of its fields needs the test that cleanText makes of each.
 * `tabSeparated`: the tabs between fields do not count (no field holds one).
 */
export function textCleanerFor(line: string, tabSeparated = false): (raw: string | undefined) => string {
  return (tabSeparated ? UNCLEAN_BUT_TAB : UNCLEAN).test(line) ? cleanText : plainText;
}

function plainText(raw: string | undefined): string {
  return raw === undefined ? '' : plain(raw);
}

function plain(raw: string): string {
  const s = raw.trim();
  return s === 'null' || s === 'NULL' ? '' : s;
}
