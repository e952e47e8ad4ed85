// Free text as the open-data files deliver it: NUL bytes, control characters, stray spaces and
// the literal placeholder `null` all occur; what is left is the value, or '' for none.

// Tabs and line breaks inside a field become spaces; every other control character goes.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const SPACING = /[\t\r\n]+/g;

export function cleanText(raw: string | undefined): string {
  if (raw === undefined) return '';
  let s = raw;
  if (/[\u0000-\u001F\u007F]/.test(s)) s = s.replace(CONTROL, '').replace(SPACING, ' ');
  s = s.trim();
  return s === 'null' || s === 'NULL' ? '' : s;
}
