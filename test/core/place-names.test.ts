// Places as users type them. Found by a review (2026-11-27): "Håbo" searched Habo (both fold to
// "habo", and the later name took the key), and "Borås kommun" was refused (the genitive s was
// stripped from a name that ends in s).
import { describe, expect, it } from 'vitest';
import { categoryHint, resolveCategory, resolveCounty, resolveMunicipality } from '../../src/core/place-names.js';
import { SEARCH_PARAMS } from '../../src/core/search-params.js';
import { nameKey } from '../../src/core/text.js';
import { LEGAL_FORMS, SORT_VALUES } from '../../src/core/values.js';
import { CATEGORIES } from '../../src/reference/categories.js';
import { COUNTIES } from '../../src/reference/counties.js';
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

describe('names typed with hyphens or underscores for spaces (nameKey)', () => {
  it('meet the name with spaces, in places, categories and enum values, and collide with no other', () => {
    expect(resolveCounty('vastra-gotaland')).toBe('14');
    expect(resolveCounty('Västra_Götalands_län')).toBe('14');
    expect(resolveMunicipality('upplands bro')).toBe(code('Upplands-Bro'));
    expect(resolveMunicipality('Upplands_Bro kommun')).toBe(code('Upplands-Bro'));
    expect(resolveCategory('ovrig vard')).toBe('ovrig-vard');
    const legalForm = SEARCH_PARAMS.legal_form.safeParse('Ekonomisk förening,enskild-naringsidkare');
    expect(legalForm.success && legalForm.data).toEqual(['ekonomisk_förening', 'enskild_näringsidkare']);
    const sort = SEARCH_PARAMS.sort.safeParse('-revenue');
    expect(sort.success && sort.data).toEqual(['-revenue']);
    // Every closed set keeps one value a key (Håbo and Habo are told apart before keys: above).
    for (const values of [LEGAL_FORMS, SORT_VALUES, CATEGORIES.map((c) => c.slug), COUNTIES.map((c) => c.name)] as const) {
      expect(new Set(values.map(nameKey)).size, values.join()).toBe(values.length);
    }
    const keys = new Map<string, string[]>();
    for (const m of MUNICIPALITIES) keys.set(nameKey(m.name), [...(keys.get(nameKey(m.name)) ?? []), m.name]);
    expect([...keys.values()].filter((names) => names.length > 1)).toEqual([['Håbo', 'Habo']].map((p) => expect.arrayContaining(p)));
  });
});

describe('an unknown category slug', () => {
  it('is answered with the slugs that hold what was typed, or where they are all listed', () => {
    const r = SEARCH_PARAMS.category.safeParse('snickeri');
    expect(r.success).toBe(false);
    expect(!r.success && r.error.issues[0].message).toBe('has an unknown value "snickeri"; expected a category slug such as snickerier (GET /categories lists them all)');
    expect(categoryHint('xyzzy')).toBe('a category slug (GET /categories lists them all)');
    // Two letters suggest nothing: they are in too many names to help.
    expect(categoryHint('ve')).toBe('a category slug (GET /categories lists them all)');
  });
});
