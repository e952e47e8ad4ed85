// How long a stored name or city may be, the same on both stores. PostgreSQL refuses a full-text
// word over 2,046 bytes and an index entry over 2,704 bytes; SQLite takes both. An import
// refuses such a value at its line, rather than failing on PostgreSQL alone without one.
import { fold, isPlainText } from './text.js';

/** Letters of a folded word that are indexed and searched; a query word longer matches nothing. */
export const MAX_WORD_LENGTH = 200;

/** UTF-8 bytes of a folded name or city, which PostgreSQL's B-tree indexes hold with a few codes beside. */
export const MAX_INDEXED_TEXT_BYTES = 1000;

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Why a name or city cannot be stored as it is, or null when it can: folded (one character can
 * fold to eighteen), it must fit the indexes, and each of its words the full-text index.
 */
export function unfitText(value: string): string | null {
  // Plain text folds to one byte a character: most values are settled without folding.
  if (value.length <= MAX_WORD_LENGTH && isPlainText(value)) return null;
  const folded = fold(value);
  if (Buffer.byteLength(folded) > MAX_INDEXED_TEXT_BYTES) return `is too long (over ${MAX_INDEXED_TEXT_BYTES} bytes once folded)`;
  for (const word of folded.match(WORD) ?? []) {
    if (word.length > MAX_WORD_LENGTH) return `has a word of over ${MAX_WORD_LENGTH} letters`;
  }
  return null;
}
