// Text from a server or a file, made safe to show on a terminal. A company name, an error message
// or a webhook body comes from someone else: an escape sequence in it would be obeyed by the
// terminal (retitle it, move the cursor over earlier lines, write the clipboard with OSC 52), and a
// bidi override would show text in another order than it is. Control characters are shown in
// caret notation as `cat -v` and gh do (ESC → ^[), the invisible ones that reorder text by code
// point (<U+202E>). On a terminal JSON and JSONL are escaped instead (the same JSON) and CSV is
// shown as text is (output/sink.ts); in a pipe or a file every format keeps the bytes.

// C0 and DEL; C1; the bidi marks, embeddings, overrides and isolates (the Arabic letter mark
// too); zero-width, word-joiner, invisible-operator and BOM marks; the deprecated format controls.
const UNSAFE = /[\u0000-\u001f\u007f]|[\u0080-\u009f]|[\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;
// What JSON may hold raw in a string that a terminal would obey or reorder by (JSON.stringify
// escapes C0 itself; a server's raw bytes need not).
const UNSAFE_IN_JSON = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;

function shown(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * `lines`: keep line ends (LF, CRLF) and a leading BOM, for text that is lines (CSV on a terminal)
 * or a cell that wraps anyway (`bolag company`'s values).
 */
export function terminalText(text: string, opts: { lines?: boolean } = {}): string {
  return text.replace(UNSAFE, (ch, at: number) => {
    if (opts.lines && (ch === '\n' || (ch === '\r' && text[at + 1] === '\n') || (ch === '\ufeff' && at === 0))) return ch;
    return shown(ch);
  });
}

/**
 * JSON for a terminal: the same JSON (a `\\uXXXX` escape is the character it names), with nothing
 * in it a terminal would obey. Line breaks and tabs stay: they are JSON's own whitespace.
 */
export function jsonForTerminal(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
