// Property: a delivery signature verifies for the exact body, timestamp and secret it was made
// with, and any flipped bit in the body, the digest or the timestamp is rejected.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signPayload, verifySignature } from '../../src/webhooks/signature.js';

const NOW = 1_800_000_000;
const secret = fc.string({ minLength: 1, maxLength: 40 }).map((s) => `whsec_${s}`);
const body = fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b));

function flipBit(bytes: Buffer, bit: number): Buffer {
  const out = Buffer.from(bytes);
  out[Math.floor(bit / 8) % out.length] ^= 1 << bit % 8;
  return out;
}

describe('webhook signature (property)', () => {
  it('verifies an untouched delivery', () => {
    fc.assert(
      fc.property(body, secret, fc.integer({ min: -300, max: 300 }), (raw, s, skew) => {
        const header = signPayload(raw, [s], NOW + skew);
        expect(verifySignature({ rawBody: raw, header, secrets: [s], nowSeconds: NOW })).toEqual({ ok: true, t: NOW + skew });
      }),
      { numRuns: 300 },
    );
  });

  it('rejects any flipped bit of the body', () => {
    fc.assert(
      fc.property(body.filter((b) => b.length > 0), secret, fc.nat(), (raw, s, bit) => {
        const header = signPayload(raw, [s], NOW);
        expect(verifySignature({ rawBody: flipBit(raw, bit), header, secrets: [s], nowSeconds: NOW }).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('rejects any change to a character of the signature header', () => {
    fc.assert(
      fc.property(body, secret, fc.nat(), fc.integer({ min: 1, max: 0x7e }), (raw, s, at, code) => {
        const header = signPayload(raw, [s], NOW);
        const i = at % header.length;
        const changed = header.slice(0, i) + String.fromCharCode(code) + header.slice(i + 1);
        // Hex digits compare case-insensitively (as Stripe's do): an upper-case digit is the same digest.
        fc.pre(changed.toLowerCase() !== header.toLowerCase());
        expect(verifySignature({ rawBody: raw, header: changed, secrets: [s], nowSeconds: NOW }).ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('rejects a signature made with another secret, or with a timestamp moved by any amount', () => {
    fc.assert(
      fc.property(body, secret, secret, fc.integer({ min: -1e9, max: 1e9 }).filter((d) => d !== 0), (raw, s1, s2, shift) => {
        fc.pre(s1 !== s2);
        const header = signPayload(raw, [s1], NOW);
        expect(verifySignature({ rawBody: raw, header, secrets: [s2], nowSeconds: NOW }).ok).toBe(false);
        const moved = header.replace(`t=${NOW}`, `t=${NOW + shift}`);
        expect(verifySignature({ rawBody: raw, header: moved, secrets: [s1], nowSeconds: NOW }).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
