import { describe, it, expect } from 'vitest';
import { COUNTIES, countyByCode } from '../../src/reference/counties.js';
import { MUNICIPALITIES, municipalityByCode, municipalitiesInCounty } from '../../src/reference/municipalities.js';
import { SNI_SECTIONS, SNI_DIVISIONS, SNI_GROUPS, SNI_DETAILS, sniName, isSniDetail } from '../../src/reference/sni.js';
import {
  CATEGORIES,
  categoryForSni,
  descendantSlugs,
  categoryBySlug,
  topCategories,
  sniPrefixesForCategory,
} from '../../src/reference/categories.js';

describe('counties', () => {
  it('has the 21 counties with unique official codes', () => {
    expect(COUNTIES).toHaveLength(21);
    const codes = COUNTIES.map((c) => c.code);
    expect(new Set(codes).size).toBe(21);
    for (const c of COUNTIES) {
      expect(c.code).toMatch(/^\d{2}$/);
      expect(c.name).toMatch(/ län$/);
    }
    expect(countyByCode('01')?.name).toBe('Stockholms län');
    expect(countyByCode('14')?.name).toBe('Västra Götalands län');
    expect(countyByCode('25')?.name).toBe('Norrbottens län');
    expect(countyByCode('02')).toBeUndefined();
  });
});

describe('municipalities', () => {
  const countyCodes = new Set(COUNTIES.map((c) => c.code));

  it('has exactly 290 municipalities with unique four-digit codes in known counties', () => {
    expect(MUNICIPALITIES).toHaveLength(290);
    expect(new Set(MUNICIPALITIES.map((m) => m.code)).size).toBe(290);
    expect(new Set(MUNICIPALITIES.map((m) => m.name)).size).toBe(290);
    for (const m of MUNICIPALITIES) {
      expect(m.code).toMatch(/^\d{4}$/);
      expect(m.countyCode).toBe(m.code.slice(0, 2));
      expect(countyCodes.has(m.countyCode)).toBe(true);
    }
  });

  it('gives every county at least one municipality', () => {
    for (const c of COUNTIES) expect(municipalitiesInCounty(c.code).length).toBeGreaterThan(0);
    expect(municipalitiesInCounty('09')).toHaveLength(1);
  });

  it('places every municipality inside Sweden with a positive population', () => {
    for (const m of MUNICIPALITIES) {
      expect(m.lat).toBeGreaterThanOrEqual(55.3);
      expect(m.lat).toBeLessThanOrEqual(69.1);
      expect(m.lng).toBeGreaterThanOrEqual(10.9);
      expect(m.lng).toBeLessThanOrEqual(24.2);
      expect(Number.isInteger(m.population)).toBe(true);
      expect(m.population).toBeGreaterThan(1000);
    }
    const total = MUNICIPALITIES.reduce((s, m) => s + m.population, 0);
    expect(total).toBeGreaterThan(10_000_000);
    expect(total).toBeLessThan(11_000_000);
  });

  it('gives every municipality postal areas with three-digit prefixes and upper-case cities', () => {
    for (const m of MUNICIPALITIES) {
      expect(m.postal.length).toBeGreaterThanOrEqual(1);
      for (const p of m.postal) {
        expect(p.prefix).toMatch(/^[1-9]\d{2}$/);
        expect(p.city).toBe(p.city.toUpperCase());
        expect(p.city.length).toBeGreaterThan(1);
      }
    }
  });

  it('never gives the same prefix and city to two municipalities', () => {
    const seen = new Map<string, string>();
    for (const m of MUNICIPALITIES) {
      for (const p of m.postal) {
        const key = `${p.prefix} ${p.city}`;
        expect(seen.get(key), key).toBeUndefined();
        seen.set(key, m.code);
      }
    }
  });

  it('gives big municipalities more postal areas', () => {
    const stockholm = municipalityByCode('0180');
    const goteborg = municipalityByCode('1480');
    const malmo = municipalityByCode('1280');
    expect(stockholm?.name).toBe('Stockholm');
    expect(stockholm?.postal.length).toBeGreaterThanOrEqual(12);
    expect(goteborg?.postal.length).toBeGreaterThanOrEqual(8);
    expect(malmo?.postal.length).toBeGreaterThanOrEqual(5);
    expect(goteborg?.postal).toContainEqual({ prefix: '421', city: 'VÄSTRA FRÖLUNDA' });
    expect(municipalityByCode('1440')?.postal).toContainEqual({ prefix: '449', city: 'NÖDINGE' });
  });
});

describe('SNI 2007', () => {
  it('has sections A–U covering all 88 divisions exactly once', () => {
    expect(SNI_SECTIONS.map((s) => s.code).join('')).toBe('ABCDEFGHIJKLMNOPQRSTU');
    expect(SNI_DIVISIONS).toHaveLength(88);
    const fromSections = SNI_SECTIONS.flatMap((s) => s.divisions);
    expect(fromSections).toHaveLength(88);
    expect([...fromSections].sort()).toEqual(SNI_DIVISIONS.map((d) => d.code).sort());
  });

  it('has unique groups whose divisions exist', () => {
    const divisions = new Set(SNI_DIVISIONS.map((d) => d.code));
    expect(SNI_GROUPS).toHaveLength(272);
    expect(new Set(SNI_GROUPS.map((g) => g.code)).size).toBe(SNI_GROUPS.length);
    for (const g of SNI_GROUPS) {
      expect(g.code).toMatch(/^\d{3}$/);
      expect(divisions.has(g.code.slice(0, 2))).toBe(true);
    }
  });

  it('has unique five-digit details whose group and division exist', () => {
    const divisions = new Set(SNI_DIVISIONS.map((d) => d.code));
    const groups = new Set(SNI_GROUPS.map((g) => g.code));
    expect(SNI_DETAILS.length).toBeGreaterThanOrEqual(350);
    expect(new Set(SNI_DETAILS.map((d) => d.code)).size).toBe(SNI_DETAILS.length);
    for (const d of SNI_DETAILS) {
      expect(d.code).toMatch(/^\d{5}$/);
      expect(divisions.has(d.code.slice(0, 2))).toBe(true);
      expect(groups.has(d.code.slice(0, 3))).toBe(true);
      expect(d.name.length).toBeGreaterThan(3);
      expect(d.weight).toBeGreaterThan(0);
    }
    for (const div of divisions) expect(SNI_DETAILS.some((d) => d.code.startsWith(div))).toBe(true);
    for (const g of groups) expect(SNI_DETAILS.some((d) => d.code.startsWith(g))).toBe(true);
  });

  it('weights common kinds of company far above rare ones', () => {
    const weight = (code: string) => SNI_DETAILS.find((d) => d.code === code)?.weight ?? 0;
    expect(weight('64202')).toBeGreaterThan(weight('64110') * 100);
    expect(weight('41200')).toBeGreaterThan(weight('01120') * 100);
    for (const code of ['70220', '62010', '68201', '56100', '49410', '43210', '47112']) {
      expect(weight(code)).toBeGreaterThan(20);
    }
  });

  it('finds the most specific name', () => {
    expect(sniName('62010')).toBe('Dataprogrammering');
    expect(sniName('62.010')).toBe('Dataprogrammering');
    expect(sniName('64202')).toBe('Holdingverksamhet i icke-finansiella koncerner');
    expect(sniName('43320')).toBe('Byggnadssnickeriarbeten');
    expect(sniName('86230')).toBe('Tandläkarverksamhet');
    expect(sniName('96021')).toBe('Hårvård');
    expect(sniName('5610')).toBe('Restaurangverksamhet');
    expect(sniName('6820')).toBe('Uthyrning och förvaltning av egna eller arrenderade fastigheter');
    expect(sniName('620')).toBe('Dataprogrammering, datakonsultverksamhet o.d.');
    expect(sniName('41')).toBe('Byggande av hus');
    expect(sniName('F')).toBe('Byggverksamhet');
    expect(sniName('99999')).toBeUndefined();
    expect(sniName('abc')).toBeUndefined();
    expect(isSniDetail('49410')).toBe(true);
    expect(isSniDetail('16230')).toBe(false);
  });
});

describe('categories', () => {
  const slugs = new Set(CATEGORIES.map((c) => c.slug));

  it('has unique kebab-case slugs, existing parents and a two-level tree', () => {
    expect(slugs.size).toBe(CATEGORIES.length);
    for (const c of CATEGORIES) {
      expect(c.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(c.name.length).toBeGreaterThan(1);
      if (c.parent !== null) {
        expect(slugs.has(c.parent)).toBe(true);
        expect(categoryBySlug(c.parent)?.parent).toBeNull();
      }
      for (const p of c.sni_prefixes) expect(p).toMatch(/^\d{2,5}$/);
    }
    const tops = topCategories();
    expect(tops.length).toBeGreaterThanOrEqual(20);
    expect(tops.length).toBeLessThanOrEqual(25);
    for (const t of tops) {
      if (t.slug === 'ovrigt') continue;
      const children = CATEGORIES.filter((c) => c.parent === t.slug);
      expect(children.length, t.slug).toBeGreaterThanOrEqual(2);
      expect(children.length, t.slug).toBeLessThanOrEqual(6);
    }
  });

  it('maps every SNI division and detail to a real category', () => {
    for (const d of SNI_DETAILS) expect(categoryForSni(d.code).slug, d.code).not.toBe('ovrigt');
    for (const div of SNI_DIVISIONS) {
      const hit = CATEGORIES.some((c) => c.sni_prefixes.some((p) => p.startsWith(div.code) || div.code.startsWith(p)));
      expect(hit, div.code).toBe(true);
    }
    expect(categoryForSni('00000').slug).toBe('ovrigt');
  });

  it('picks the most specific category', () => {
    expect(descendantSlugs('bygg')).toContain(categoryForSni('43320').slug);
    expect(categoryForSni('43320').slug).toBe('snickerier');
    expect(categoryForSni('16239').slug).toBe('snickerier');
    expect(categoryForSni('16101').slug).toBe('tra-och-mobler');
    expect(categoryForSni('43210').slug).toBe('elinstallation');
    expect(categoryForSni('43999').slug).toBe('bygg');
    expect(categoryForSni('62010').slug).toBe('programmering');
    expect(categoryForSni('64202').slug).toBe('holdingbolag');
    expect(categoryForSni('56100').slug).toBe('restauranger');
    expect(categoryForSni('96021').slug).toBe('frisorer');
    expect(categoryForSni('96090').slug).toBe('hushallstjanster');
    expect(categoryForSni('70210').slug).toBe('reklam-och-pr');
    expect(categoryForSni('75000').slug).toBe('veterinarer');
    expect(categoryForSni('68.204').slug).toBe('bostadsrattsforeningar');
  });

  it('lists a slug and its descendants', () => {
    const bygg = descendantSlugs('bygg');
    expect(bygg[0]).toBe('bygg');
    expect(bygg).toEqual(expect.arrayContaining(['snickerier', 'elinstallation', 'vvs', 'maleri', 'takarbeten', 'husbyggnad']));
    expect(descendantSlugs('snickerier')).toEqual(['snickerier']);
    expect(descendantSlugs('finns-inte')).toEqual([]);
    expect(sniPrefixesForCategory('bygg')).toEqual(expect.arrayContaining(['41', '43', '1623', '43320']));
  });
});
