// Text from a server or a file, made safe to show on a terminal. A company name, an error message
// or a webhook body comes from someone else: an escape sequence in it would be obeyed by the
// terminal (retitle it, move the cursor over earlier lines, write the clipboard with OSC 52), and a
// bidi override would show text in another order than it is. Control characters are shown in
// caret notation as `cat -v` and gh do (ESC → ^[), the invisible ones that reorder text by code
// point (<U+202E>). Data formats (JSON, JSONL, CSV) keep the bytes: JSON escapes control
// characters itself, and a CSV is a file's content, not a display.

// C0 and DEL; C1; the bidi embeddings, overrides and isolates; zero-width and BOM marks.
const UNSAFE = /[\u0000-\u001f\u007f]|[\u0080-\u009f]|[\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2028\u2029\ufeff]/g;

function shown(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** `lines`: keep line feeds, for a cell that wraps anyway (`bolag company`'s values). */
export function terminalText(text: string, opts: { lines?: boolean } = {}): string {
  return text.replace(UNSAFE, (ch) => (opts.lines && ch === '\n' ? ch : shown(ch)));
}
