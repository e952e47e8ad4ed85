// Places as users type them. Found by a review (2026-11-27): "Håbo" searched Habo (both fold to
// "habo", and the later name took the key), and "Borås kommun" was refused (the genitive s was
// stripped from a name that ends in s).
import { describe, expect, it } from 'vitest';
import { resolveCounty, resolveMunicipality } from '../../src/core/place-names.js';
import { MUNICIPALITIES } from '../../src/reference/municipalities.js';

const code = (name: string) => MUNICIPALITIES.find((m) => m.name === name)!.code;

describe('resolveMunicipality', () => {
  it('tells apart names that differ only in diacritics, as written', () => {
    expect(code('Håbo')).toBe('0305');
    expect(code('Habo')).toBe('0643');
    expect(resolveMunicipality('Håbo')).toBe('0305');
    expect(resolveMunicipality('HÅBO')).toBe('0305');
    expect(resolveMunicipality('Habo')).toBe('0643');
    expect(resolveMunicipality('habo kommun')).toBe('0643');
    expect(resolveMunicipality('Håbo kommun')).toBe('0305');
  });

  it('takes every name with and without " kommun", and the genitive form', () => {
    for (const m of MUNICIPALITIES) {
      expect(resolveMunicipality(m.name), m.name).toBe(m.code);
      expect(resolveMunicipality(`${m.name} kommun`), `${m.name} kommun`).toBe(m.code);
      expect(resolveMunicipality(m.code)).toBe(m.code);
    }
    expect(resolveMunicipality('Borås kommun')).toBe(code('Borås'));
    expect(resolveMunicipality('Göteborgs kommun')).toBe(code('Göteborg'));
    expect(resolveMunicipality('Vasteras')).toBe(code('Västerås'));
    expect(resolveMunicipality('  Malmö  ')).toBe(code('Malmö'));
    expect(resolveMunicipality('Ingenstans')).toBeNull();
    expect(resolveCounty('Västra Götaland')).toBe('14');
  });
});
