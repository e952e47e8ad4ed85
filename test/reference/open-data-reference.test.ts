import { describe, expect, it } from 'vitest';
import { placeForPostalCode } from '../../src/reference/postal-municipality.js';
import { categoryForSni2025, SNI2025_DIVISIONS, SNI2025_SECTIONS, sni2025Section } from '../../src/reference/sni2025.js';

describe('postal code → municipality', () => {
  it('knows listed postal areas and says when it took the nearest', () => {
    expect(placeForPostalCode('411 36')).toMatchObject({ municipality: { code: '1480', name: 'Göteborg' }, nearestOnly: false });
    expect(placeForPostalCode('11151')?.municipality.code).toBe('0180');
    expect(placeForPostalCode('10247')).toMatchObject({ municipality: { code: '0180' }, nearestOnly: true });
    expect(placeForPostalCode('00100')).toBeUndefined();
  });

  it('maps every prefix from 100 to 989', () => {
    for (let p = 100; p <= 989; p++) expect(placeForPostalCode(`${p}00`), String(p)).toBeDefined();
  });
});

describe('SNI 2025', () => {
  it('has sections A–V whose divisions are all named', () => {
    expect(SNI2025_SECTIONS.map((s) => s.code).join('')).toBe('ABCDEFGHIJKLMNOPQRSTUV');
    const named = new Set(SNI2025_DIVISIONS.map((d) => d.code));
    for (const s of SNI2025_SECTIONS) for (const d of s.divisions) expect(named.has(d), d).toBe(true);
    expect(sni2025Section('62100')?.code).toBe('K');
    expect(named.has('45')).toBe(false);
  });

  it('files 2025 codes in the SNI 2007 category tree, moved groups under their 2007 counterpart', () => {
    expect(categoryForSni2025('47810').slug).toBe('bilhandel');
    expect(categoryForSni2025('95310').slug).toBe('bilverkstader');
    expect(categoryForSni2025('56110').slug).toBe('restauranger');
    expect(categoryForSni2025('62100').slug).toBe('it');
    // A moved prefix of another length: its digits after it are no SNI 2007 digits (47.91 and
    // 47.92, intermediation of retail sale, were filed under groceries, 47.1, until 2026-11-29).
    expect(categoryForSni2025('47910').slug).toBe('handel');
    expect(categoryForSni2025('47920').slug).toBe('handel');
    expect(categoryForSni2025('46710').slug).toBe('bilhandel');
  });
});
