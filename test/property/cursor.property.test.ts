// Property: a search cursor decodes to the position it was made from, for that query only, and
// any change to any character of it is refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Signer } from '../../src/app/signer.js';
import type { SearchQuery } from '../../src/core/search-params.js';
import { decodeCursor, encodeCursor } from '../../src/server/cursor.js';

const signer = new Signer('property-test-key');
const position = fc.record({
  value: fc.oneof(fc.constant(null), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
  id: fc.string({ minLength: 1, maxLength: 12 }),
});
const query = fc.record({
  filters: fc.record({ q: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), county: fc.option(fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }), { nil: undefined }) }),
  sort: fc.constantFrom('name', '-revenue', 'relevance'),
  limit: fc.integer({ min: 1, max: 100 }),
  expand: fc.constantFrom([], ['latest_financials']),
}) as unknown as fc.Arbitrary<SearchQuery>;

describe('cursor codec (property)', () => {
  it('decodes what it encodes, whatever the limit', () => {
    fc.assert(
      fc.property(position, query, fc.integer({ min: 1, max: 100 }), (p, q, limit) => {
        const decoded = decodeCursor(signer, encodeCursor(signer, p, q), { ...q, limit });
        expect(decoded).toEqual({ value: Object.is(p.value, -0) ? 0 : p.value, id: p.id });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a cursor of another query', () => {
    fc.assert(
      fc.property(position, query, query, (p, q1, q2) => {
        fc.pre(JSON.stringify([q1.filters, q1.sort, q1.expand]) !== JSON.stringify([q2.filters, q2.sort, q2.expand]));
        expect(decodeCursor(signer, encodeCursor(signer, p, q1), q2)).toHaveProperty('error');
      }),
      { numRuns: 200 },
    );
  });

  it('refuses any changed, dropped or added character', () => {
    const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom('replace', 'drop', 'insert'), ch: fc.string({ minLength: 1, maxLength: 1 }) });
    fc.assert(
      fc.property(position, query, edit, (p, q, e) => {
        const cursor = encodeCursor(signer, p, q);
        const at = e.at % cursor.length;
        const changed =
          e.kind === 'drop' ? cursor.slice(0, at) + cursor.slice(at + 1)
          : e.kind === 'insert' ? cursor.slice(0, at) + e.ch + cursor.slice(at)
          : cursor.slice(0, at) + e.ch + cursor.slice(at + 1);
        fc.pre(changed !== cursor);
        expect(decodeCursor(signer, changed, q)).toHaveProperty('error');
      }),
      { numRuns: 500 },
    );
  });

  it('refuses any string that it did not sign', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), query, (junk, q) => {
        expect(decodeCursor(signer, junk, q)).toHaveProperty('error');
      }),
      { numRuns: 300 },
    );
  });
});
