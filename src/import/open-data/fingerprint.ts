// A 52-bit fingerprint of a source line (two FNV-1a hashes), stored with the company: next
// week's identical line is then settled from an index, without reading or merging the company.
// MAPPING_VERSION goes into every fingerprint: change it when the mapping of lines to fields
// changes, so that the next import applies every line again.
const MAPPING_VERSION = 1;

export function lineFingerprint(text: string): number {
  let a = 0x811c9dc5 ^ MAPPING_VERSION;
  let b = 0x01000193 ^ MAPPING_VERSION;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  // 32 bits of one and 20 of the other: a safe integer, as SQLite and JavaScript both keep it.
  return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff);
}
