// "Did you mean" for an unknown county or municipality: typos and beginnings, folded.
import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean } from '../../src/core/closest.js';
import { countyHint, municipalityHint } from '../../src/core/place-names.js';
import { SEARCH_QUERY_SCHEMA } from '../../src/core/search-params.js';

describe('closestNames', () => {
  const names = ['Stockholm', 'Göteborg', 'Uppsala', 'Upplands Väsby', 'Västra Götaland', 'Habo', 'Håbo'];
  it('finds a typo (a letter missing, extra, wrong or two swapped), whatever the case and diacritics', () => {
    expect(closestNames('Stokholm', names)).toEqual(['Stockholm']);
    expect(closestNames('stockhlom', names)).toEqual(['Stockholm']);
    expect(closestNames('GOTEBORG', names)).toEqual(['Göteborg']);
    expect(closestNames('Upsala', names)).toEqual(['Uppsala']);
  });
  it('finds the names a beginning starts, after the typos', () => {
    expect(closestNames('Västra', names)).toEqual(['Västra Götaland']);
    expect(closestNames('Uppl', names)).toEqual(['Upplands Väsby']);
  });
  it('offers nothing for what is nowhere near, or too short to tell', () => {
    expect(closestNames('Narnia', names)).toEqual([]);
    expect(closestNames('Ha', names)).toEqual([]);
    expect(didYouMean('Narnia', names)).toBe('');
  });
  it('names at most three, closest first', () => {
    expect(closestNames('Habo', names)).toEqual(['Habo', 'Håbo']);
    expect(didYouMean('Hbo', names)).toBe(' (did you mean Habo or Håbo?)');
  });
});

describe('unknown places in a search', () => {
  it('are answered with the names they may have been meant for', () => {
    expect(municipalityHint('Stokholm')).toBe('a municipality name or code such as 0180 (did you mean Stockholm?)');
    expect(municipalityHint('Göteborgs kommun')).toContain('(did you mean Göteborg?)');
    expect(countyHint('Västra')).toBe('a county name or code such as 01 (did you mean Västra Götaland?)');
    const r = SEARCH_QUERY_SCHEMA.safeParse({ county: 'Skåne,Stokholm' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toBe('has an unknown value "Stokholm"; expected a county name or code such as 01 (did you mean Stockholm?)');
  });
});
