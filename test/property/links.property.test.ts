// Property: a download link is unforgeable and bound to its export, target and expiry: its
// signature verifies for exactly the (export, target, expires) it was made for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Signer } from '../../src/app/signer.js';
import { checkLink, signedLink } from '../../src/exports/links.js';

const signer = new Signer('links-property-key');
const NOW = new Date('2026-01-01T00:00:00Z');
const exportId = fc.oneof(fc.constant('exp_AAAAAAAAAAAAAAAA'), fc.string({ minLength: 1, maxLength: 20 }));
const target = fc.oneof(fc.constant('all' as const), fc.integer({ min: 1, max: 999 }));
const expires = fc.integer({ min: Math.floor(NOW.getTime() / 1000) + 1, max: 99_999_999_999 });
const link = fc.record({ id: exportId, target, expires });

function signatureOf(l: { id: string; target: 'all' | number; expires: number }): string {
  return new URL(signedLink(signer, 'http://x', l.id, l.target, l.expires)).searchParams.get('signature')!;
}

describe('download links (property)', () => {
  it('verify for exactly what they were made for', () => {
    fc.assert(
      fc.property(link, link, (a, b) => {
        const signature = signatureOf(a);
        expect(checkLink(signer, a.id, a.target, { expires: String(a.expires), signature }, NOW)).toEqual({ ok: true });
        fc.pre(a.id !== b.id || a.target !== b.target || a.expires !== b.expires);
        expect(checkLink(signer, b.id, b.target, { expires: String(b.expires), signature }, NOW)).toEqual({ ok: false, reason: 'forbidden' });
      }),
      { numRuns: 500 },
    );
  });

  it('refuse any signature the server did not make', () => {
    fc.assert(
      fc.property(link, fc.string({ maxLength: 60 }), (l, signature) => {
        fc.pre(signature !== signatureOf(l));
        expect(checkLink(signer, l.id, l.target, { expires: String(l.expires), signature }, NOW)).toEqual({ ok: false, reason: 'forbidden' });
      }),
      { numRuns: 500 },
    );
  });
});
