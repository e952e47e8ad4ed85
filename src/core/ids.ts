import { randomBytes } from 'node:crypto';

/** Random, URL-safe identifiers with a type prefix (`exp_…`, `whk_…`), so a stray id says what it is. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
