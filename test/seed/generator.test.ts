import { describe, expect, it } from 'vitest';
import { CompanySchema } from '../../src/core/company.js';
import { isValidOrgNr } from '../../src/core/orgnr.js';
import { LEGAL_FORMS } from '../../src/core/values.js';
import { COUNTIES } from '../../src/reference/counties.js';
import { MUNICIPALITIES } from '../../src/reference/municipalities.js';
import { CompanyGenerator } from '../../src/seed/generate-company.js';
import { ADVERTISING_BLOCK_SHARE, LEGAL_FORM_SHARES, STATUS_SHARES } from '../../src/seed/shares.js';

const N = 40_000;
const companies = [...new CompanyGenerator('test').generate(N)];
const share = (pred: (c: (typeof companies)[number]) => boolean) => companies.filter(pred).length / N;

describe('the register generator', () => {
  it('is deterministic: same seed, same register; another seed, another', () => {
    const again = [...new CompanyGenerator('test').generate(500)];
    expect(again).toEqual(companies.slice(0, 500));
    const other = [...new CompanyGenerator('other').generate(500)];
    expect(other.map((c) => c.org_nr)).not.toEqual(again.map((c) => c.org_nr));
  });

  it('writes times as Date prints them, never before the company was registered', () => {
    const bad = companies.filter((c) => new Date(c.updated_at).toISOString() !== c.updated_at || c.updated_at.slice(0, 10) < c.registration_date);
    expect(bad.map((c) => `${c.registration_date} ${c.updated_at}`).slice(0, 5)).toEqual([]);
  });

  it('produces records of the API shape', () => {
    for (const c of companies.slice(0, 2000)) expect(CompanySchema.safeParse(c).success, JSON.stringify(c)).toBe(true);
  });

  it('gives every company a valid, unique organisation number whose first digit fits its form', () => {
    const seen = new Set<string>();
    const firstDigit: Record<string, string[]> = {
      aktiebolag: ['5'], handelsbolag: ['9'], kommanditbolag: ['9'], ekonomisk_förening: ['7'], bostadsrättsförening: ['7'],
      ideell_förening: ['8'], stiftelse: ['8'], filial: ['5'],
    };
    // Collect the offenders and assert once: an expect per company is slow over 40,000 of them.
    const bad: string[] = [];
    for (const c of companies) {
      if (!isValidOrgNr(c.org_nr)) bad.push(`${c.org_nr}: check digit`);
      if (seen.has(c.org_nr)) bad.push(`${c.org_nr}: duplicate`);
      seen.add(c.org_nr);
      if (c.legal_form === 'enskild_näringsidkare') {
        const month = Number(c.org_nr.slice(2, 4));
        if (month < 1 || month > 12) bad.push(`${c.org_nr}: month of a personal number`);
      } else {
        if (!firstDigit[c.legal_form].includes(c.org_nr[0])) bad.push(`${c.org_nr}: first digit for ${c.legal_form}`);
        if (Number(c.org_nr.slice(2, 4)) < 20) bad.push(`${c.org_nr}: digits 3-4 below 20`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('covers every county and places companies in their municipality', () => {
    const counties = new Set(companies.map((c) => c.county_code));
    expect([...counties].sort()).toEqual(COUNTIES.map((c) => c.code).sort());
    const byCode = new Map(MUNICIPALITIES.map((m) => [m.code, m]));
    for (const c of companies.slice(0, 5000)) {
      const m = byCode.get(c.municipality_code)!;
      expect(m.countyCode).toBe(c.county_code);
      expect(m.postal.some((p) => c.address.postal_code.startsWith(p.prefix) && p.city === c.address.city)).toBe(true);
      expect(Math.abs(c.location!.lat - m.lat)).toBeLessThan(1.5);
      expect(Math.abs(c.location!.lng - m.lng)).toBeLessThan(2.5);
    }
  });

  it('keeps legal forms, statuses and advertising blocks within bounds of the stated shares', () => {
    for (const form of LEGAL_FORMS) {
      const expected = LEGAL_FORM_SHARES[form];
      expect(Math.abs(share((c) => c.legal_form === form) - expected), form).toBeLessThan(Math.max(0.01, expected * 0.15));
    }
    expect(Math.abs(share((c) => c.status === 'aktiv') - STATUS_SHARES.aktiv)).toBeLessThan(0.03);
    const blocked = share((c) => c.advertising_blocked);
    expect(blocked).toBeGreaterThan(ADVERTISING_BLOCK_SHARE / 2);
    expect(blocked).toBeLessThan(ADVERTISING_BLOCK_SHARE * 2);
  });

  it('draws heavy-tailed revenue, nulls where a company has no accounts, sole traders without accounts', () => {
    const revenues = companies.filter((c) => c.revenue !== null).map((c) => c.revenue!).sort((a, b) => a - b);
    const median = revenues[Math.floor(revenues.length / 2)];
    const p999 = revenues[Math.floor(revenues.length * 0.999)];
    expect(median).toBeGreaterThan(300_000);
    expect(median).toBeLessThan(5_000_000);
    expect(p999 / median).toBeGreaterThan(50);
    expect(companies.filter((c) => c.legal_form === 'enskild_näringsidkare').every((c) => !c.has_financials && c.revenue === null)).toBe(true);
    for (const c of companies) {
      expect(c.has_financials).toBe(c.latest_financials !== null);
      if (c.latest_financials) expect(c.latest_financials.net_revenue).toBe(c.revenue);
    }
  });

  it('spreads registration dates over decades', () => {
    const years = companies.map((c) => Number(c.registration_date.slice(0, 4)));
    expect(Math.min(...years)).toBeLessThan(1960);
    expect(Math.max(...years)).toBeGreaterThanOrEqual(2026);
    expect(share((c) => c.registration_date >= '2016')).toBeGreaterThan(0.3);
    expect(companies.filter((c) => c.updated_at.slice(0, 10) < c.registration_date).map((c) => c.org_nr)).toEqual([]);
  });
});
