// How a source's line bytes become text: Bolagsverket's file is UTF-8, SCB's windows-1252.
// Node 20's TextDecoder('windows-1252') reads 0x80–0x9F as Latin-1's C1 control characters, not
// as windows-1252's € – — ’ “ ” … (found 2026-11-28: `Euro € – ”citat” AB` was stored as
// `Euro   citat AB`, the controls cleaned away), so those 32 bytes are mapped here, as the
// WHATWG Encoding Standard's table has them. Where a later Node decodes them itself, nothing is left to map.
import { isUtf8 } from 'node:buffer';
import type { OpenDataSource } from './source-parser.js';

export interface LineDecoder {
  decode(bytes: Uint8Array): string;
}

/** windows-1252's 0x80–0x9F (the WHATWG index); 0x81, 0x8D, 0x8F, 0x90 and 0x9D stay as they are. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
].map((c) => String.fromCharCode(c));
const C1 = /[\u0080-\u009f]/;
const C1_ALL = /[\u0080-\u009f]/g;

export function encodingOf(source: OpenDataSource): 'utf-8' | 'windows-1252' {
  return source === 'scb' ? 'windows-1252' : 'utf-8';
}

/**
 * A line in the other of the two encodings is read in that one: a file saved again by a tool in
 * the other encoding (SCB's as UTF-8, Bolagsverket's as Latin-1) was stored garbled, silently
 * (`GÃ–TEBORG`, `Solg�rden`), and sent an update for every company with a letter past ASCII.
 * Valid UTF-8 with bytes past ASCII is never windows-1252 text in these files (it would take
 * pairs such as `Ã–`), and Latin-1's å ä ö are never valid UTF-8 before a letter.
 */
export function lineDecoderFor(source: OpenDataSource): LineDecoder {
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  const cp1252 = new TextDecoder('windows-1252', { ignoreBOM: true });
  const fromCp1252 = (bytes: Uint8Array) => {
    const text = cp1252.decode(bytes);
    return C1.test(text) ? text.replace(C1_ALL, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]) : text;
  };
  if (encodingOf(source) === 'utf-8') {
    return {
      decode(bytes: Uint8Array): string {
        const text = utf8.decode(bytes);
        return text.includes('\uFFFD') && !isUtf8(bytes) ? fromCp1252(bytes) : text;
      },
    };
  }
  return {
    decode(bytes: Uint8Array): string {
      const text = fromCp1252(bytes);
      // Only a line with a byte past ASCII can differ, and its text then has a character past it.
      return NON_ASCII.test(text) && isUtf8(bytes) ? utf8.decode(bytes) : text;
    },
  };
}

const NON_ASCII = /[^\x00-\x7f]/;
