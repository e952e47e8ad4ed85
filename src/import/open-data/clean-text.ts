// Free text as the open-data files deliver it: NUL bytes, control characters, stray spaces and
// the literal placeholder `null` all occur; what is left is the value, or '' for none.

import { CONTROL_CHARACTER } from '../../core/text.js';

// Tabs and line breaks inside a field become spaces; every other control character goes.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const SPACING = /[\t\r\n]+/g;

const ANY_CONTROL_BUT_TAB = /[\u0000-\u0008\u000A-\u001F\u007F]/;

export function cleanText(raw: string | undefined): string {
  if (raw === undefined) return '';
  return CONTROL_CHARACTER.test(raw) ? plain(raw.replace(CONTROL, '').replace(SPACING, ' ')) : plain(raw);
}

/**
 * The cleaner for the fields of one line: when the whole line holds no control character (most
 * do), none of its fields needs the test that cleanText makes of each. `tabSeparated`: the tabs
 * between fields do not count (no field holds one).
 */
export function textCleanerFor(line: string, tabSeparated = false): (raw: string | undefined) => string {
  return (tabSeparated ? ANY_CONTROL_BUT_TAB : CONTROL_CHARACTER).test(line) ? cleanText : plainText;
}

function plainText(raw: string | undefined): string {
  return raw === undefined ? '' : plain(raw);
}

function plain(raw: string): string {
  const s = raw.trim();
  return s === 'null' || s === 'NULL' ? '' : s;
}
