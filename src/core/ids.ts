import { randomBytes } from 'node:crypto';
import { CONTROL_CHARACTER } from './text.js';

// Random bytes are drawn in blocks: an import can name millions of events, and one call to the
// system's generator per id would cost more than everything else it does per company.
let pool = Buffer.alloc(0);
let offset = 0;

/** Random, URL-safe identifiers with a type prefix (`exp_…`, `whk_…`), so a stray id says what it is. */
export function newId(prefix: string): string {
  if (offset + 12 > pool.length) {
    pool = randomBytes(12 * 1024);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + 12);
  offset += 12;
  return `${prefix}_${id}`;
}

/**
 * Whether a caller's id could name a stored row: none has a control character, and PostgreSQL's
 * text cannot even hold NUL (a lookup with one fails rather than finding nothing).
 */
export function mayNameRow(id: string): boolean {
  return !CONTROL_CHARACTER.test(id);
}
