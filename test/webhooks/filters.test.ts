import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { compileFilters, isCompanyEvent, validateFilters } from '../../src/webhooks/filters.js';

const subject = {
  county: '01',
  municipality: '0180',
  city: 'stockholm',
  postal_code: '11122',
  legal_form: 'ekonomisk_förening',
  status: 'aktiv',
  category: 'vaxtodling',
  sni: ['01110', '62010'],
  employees_class: '10-19',
  org_nr: '5560000001',
};

describe('webhook filters', () => {
  it('matches with search semantics', () => {
    const yes = [
      { county: ['Stockholms län'] },
      { county: ['stockholm'] },
      { county: ['01', '14'] },
      { municipality: ['Stockholm'] },
      { municipality: ['0180'] },
      { city: ['STOCKHOLM'] },
      { postal_code: ['111'] },
      { postal_code: ['111 22'] },
      { legal_form: ['Ekonomisk_Forening'] },
      { status: ['AKTIV', 'konkurs'] },
      { status: ['all'] },
      { category: ['jordbruk-skog-fiske'] }, // the parent of vaxtodling
      { category: ['vaxtodling'] },
      { sni: ['62'] },
      { sni: ['0111'] },
      { employees_class: ['10-19'] },
      { org_nr: ['556000-0001'] },
      { county: ['01'], status: ['aktiv'], sni: ['6'] },
    ];
    for (const f of yes) expect(compileFilters(validateFilters(f))(subject), JSON.stringify(f)).toBe(true);
    const no = [
      { county: ['Skåne'] },
      { municipality: ['Göteborg'] },
      { city: ['Malmö'] },
      { postal_code: ['112'] },
      { legal_form: ['aktiebolag'] },
      { status: ['konkurs'] },
      { category: ['skogsbruk'] },
      { sni: ['63'] },
      { employees_class: ['0'] },
      { org_nr: ['5560000019'] },
      { county: ['01'], status: ['konkurs'] },
    ];
    for (const f of no) expect(compileFilters(validateFilters(f))(subject), JSON.stringify(f)).toBe(false);
  });

  it('matches a subject written with names instead of codes', () => {
    const named = { ...subject, county: 'Stockholms län', municipality: 'Stockholm' };
    expect(compileFilters({ county: ['01'] })(named)).toBe(true);
    expect(compileFilters({ municipality: ['0180'] })(named)).toBe(true);
  });

  it('without filters matches everything; with filters never an event without subject', () => {
    expect(compileFilters({})(null)).toBe(true);
    expect(compileFilters({ county: ['01'] })(null)).toBe(false);
    expect(compileFilters({ county: ['01'] })({ status: 'aktiv' })).toBe(false);
  });

  it('refuses unknown values with the filter named', () => {
    for (const [key, value] of [
      ['county', 'Atlantis'],
      ['municipality', 'Gotham'],
      ['category', 'no-such-category'],
      ['sni', '62a'],
      ['postal_code', '123456'],
      ['legal_form', 'llc'],
      ['status', 'sleepy'],
      ['employees_class', '7-8'],
      ['org_nr', '12345'],
      ['org_nr', '556000-0002'], // a wrong check digit: no organisation has it
    ] as const) {
      try {
        validateFilters({ [key]: [value] });
        expect.unreachable(`${key}=${value} accepted`);
      } catch (e) {
        expect(e).toBeInstanceOf(ApiError);
        expect((e as ApiError).param).toBe(`filters.${key}`);
      }
    }
  });

  it('splits comma-separated items and keeps the user spelling', () => {
    expect(validateFilters({ county: ['Stockholm, 14', '14'] })).toEqual({ county: ['Stockholm', '14'] });
  });

  it('knows which events are company events', () => {
    expect(['company.created', 'company.updated', 'company.status_changed', 'financials.published'].every(isCompanyEvent)).toBe(true);
    expect(['export.completed', 'export.failed', 'webhook.test'].some(isCompanyEvent)).toBe(false);
  });
});
