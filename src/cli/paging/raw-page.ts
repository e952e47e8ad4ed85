// The rows of a GET /companies answer as the exact bytes the server sent, one Buffer per
// company, without decoding, parsing and re-serialising them: what makes `--format jsonl`
// stream at the speed of the network. Falls back (returns null) on anything unexpected.

const PREFIX = Buffer.from('{"data":[');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const NEWLINE = 0x0a;

export interface RawPage {
  /** Each company record, compact JSON, as sent. */
  rows: Buffer[];
  /** The other members of the body (pagination, meta), parsed. */
  rest: Record<string, unknown>;
}

/**
 * Splits `{"data":[{…},{…}],"pagination":{…},"meta":{…}}` into its records. Bytes of
 * multi-byte UTF-8 characters are all >= 0x80, so scanning bytes for ASCII delimiters is safe.
 */
export function splitCompanyPage(body: Buffer): RawPage | null {
  if (body.length < PREFIX.length + 2 || !body.subarray(0, PREFIX.length).equals(PREFIX)) return null;
  const rows: Buffer[] = [];
  let i = PREFIX.length;
  if (body[i] !== CLOSE_ARRAY) {
    for (;;) {
      if (body[i] !== OPEN_OBJECT) return null;
      const end = endOfValue(body, i);
      if (end < 0) return null;
      rows.push(body.subarray(i, end));
      i = end;
      if (body[i] === COMMA) {
        i++;
        continue;
      }
      if (body[i] === CLOSE_ARRAY) break;
      return null;
    }
  }
  // i is at the ] closing data: the rest is `,"pagination":…}` (or `}`).
  const tail = body.subarray(i + 1).toString('utf8');
  try {
    const rest = tail === '}' ? {} : (JSON.parse(`{${tail.slice(1)}`) as Record<string, unknown>);
    return tail.startsWith(',') || tail === '}' ? { rows, rest } : null;
  } catch {
    return null;
  }
}

/** Index just past the object or array that starts at `start`, or -1. Rejects raw newlines. */
function endOfValue(body: Buffer, start: number): number {
  let depth = 0;
  for (let i = start; i < body.length; i++) {
    const c = body[i];
    if (c === QUOTE) {
      i = endOfString(body, i);
      if (i < 0) return -1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (--depth === 0) return i + 1;
    } else if (c === NEWLINE) return -1;
  }
  return -1;
}

/** Index of the quote closing the string that opens at `open` (skipping escaped quotes). */
function endOfString(body: Buffer, open: number): number {
  let q = open;
  for (;;) {
    q = body.indexOf(QUOTE, q + 1);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let k = q - 1; body[k] === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
}
