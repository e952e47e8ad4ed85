import { describe, expect, it } from 'vitest';
import { apiErrorFromZod } from '../../src/core/errors.js';
import { SEARCH_QUERY_SCHEMA, toSearchQuery } from '../../src/core/search-params.js';

function parse(query: Record<string, string>) {
  const r = SEARCH_QUERY_SCHEMA.safeParse(query);
  if (r.success) return { ok: true as const, query: toSearchQuery(r.data) };
  const e = apiErrorFromZod(r.error);
  return { ok: false as const, code: e.code, param: e.param };
}

const accepts = (q: Record<string, string>) => expect(parse(q).ok, JSON.stringify(q)).toBe(true);
const rejects = (q: Record<string, string>, param: string, code = 'invalid_parameter') =>
  expect(parse(q), JSON.stringify(q)).toEqual({ ok: false, code, param });

describe('GET /companies parameter rules (spec §4.1, §8; contract §2.1, §2.5)', () => {
  it('limit: 1 to 100, default 25, never clamped', () => {
    accepts({ limit: '1' });
    accepts({ limit: '100' });
    rejects({ limit: '0' }, 'limit');
    rejects({ limit: '101' }, 'limit');
    rejects({ limit: '2.5' }, 'limit');
    rejects({ limit: 'ten' }, 'limit');
    expect(parse({}).ok && (parse({}) as { query: { limit: number } }).query.limit).toBe(25);
  });

  it('q: 1 to 200 characters', () => {
    accepts({ q: 'a'.repeat(200) });
    accepts({ q: 'å'.repeat(200) });
    rejects({ q: 'a'.repeat(201) }, 'q');
    rejects({ q: '   ' }, 'q');
  });

  it('postal_code: prefixes of 1 to 5 digits, comma-separated', () => {
    accepts({ postal_code: '4' });
    accepts({ postal_code: '41105' });
    accepts({ postal_code: '411 05,12' });
    rejects({ postal_code: '411050' }, 'postal_code');
    rejects({ postal_code: '41a' }, 'postal_code');
    rejects({ postal_code: '' }, 'postal_code');
  });

  it('sni: prefixes of 1 to 5 digits, also in the dotted form registers print (43.320)', () => {
    const sni = (value: string) => {
      const r = parse({ sni: value });
      return r.ok ? r.query.filters.sni : r;
    };
    expect(sni('43320')).toEqual(['43320']);
    expect(sni('43.320,01.1,62')).toEqual(['43320', '011', '62']);
    rejects({ sni: '433201' }, 'sni');
    rejects({ sni: '43.3201' }, 'sni');
    rejects({ sni: '4.3' }, 'sni');
    rejects({ sni: '43.' }, 'sni');
    rejects({ sni: '43-320' }, 'sni');
  });

  it('radius_km: above 0 up to 500, needs near, default 10', () => {
    accepts({ near: '59.33,18.06', radius_km: '500' });
    accepts({ near: '59.33,18.06', radius_km: '0.1' });
    rejects({ near: '59.33,18.06', radius_km: '500.01' }, 'radius_km');
    rejects({ near: '59.33,18.06', radius_km: '0' }, 'radius_km');
    rejects({ radius_km: '5' }, 'radius_km');
    const r = parse({ near: '59.33,18.06' });
    expect(r.ok && r.query.filters.radius_km).toBe(10);
  });

  it('near: "<lat>,<lng>" within range', () => {
    accepts({ near: '-90,180' });
    accepts({ near: '59.3293, 18.0686' });
    rejects({ near: '90.1,18' }, 'near');
    rejects({ near: '59,180.5' }, 'near');
    rejects({ near: '59.33' }, 'near');
    rejects({ near: 'stockholm' }, 'near');
  });

  it('min/max pairs: min may equal max, not exceed it', () => {
    accepts({ revenue_min: '100', revenue_max: '100' });
    rejects({ revenue_min: '101', revenue_max: '100' }, 'revenue_min');
    accepts({ profit_min: '-5', profit_max: '-5' });
    rejects({ profit_min: '-4', profit_max: '-5' }, 'profit_min');
    rejects({ revenue_min: '1e3' }, 'revenue_min');
    accepts({ equity_ratio_min: '0.3', revenue_growth_min: '-0.2' });
  });

  it('a number that is not one is told in words a person can act on, not as a pattern', () => {
    // Found by a CLI review (2026-11-27): "Invalid string: must match pattern /^-?\d+(\.\d+)?$/".
    for (const [param, value] of [['revenue_min', '5e6'], ['revenue_min', '5 000 000'], ['equity_ratio_min', '0,3'], ['limit', 'ten']]) {
      const r = SEARCH_QUERY_SCHEMA.safeParse({ [param]: value });
      expect(r.success, `${param}=${value}`).toBe(false);
      const e = apiErrorFromZod(r.error!);
      expect(e.param).toBe(param);
      expect(e.message, e.message).not.toMatch(/pattern|\^|\$\//);
      expect(e.message).toMatch(/must be (a number|an integer)/);
    }
  });

  it('dates: real calendar dates, from not after to', () => {
    accepts({ registered_from: '2024-02-29', registered_to: '2024-02-29' });
    rejects({ registered_from: '2023-02-29' }, 'registered_from');
    rejects({ registered_to: '2024-13-01' }, 'registered_to');
    rejects({ registered_from: '2024-1-01' }, 'registered_from');
    rejects({ registered_from: '2024-03-02', registered_to: '2024-03-01' }, 'registered_from');
  });

  it('sort: relevance needs q, distance needs near; one value; descending with -', () => {
    accepts({ sort: 'relevance', q: 'bygg' });
    rejects({ sort: 'relevance' }, 'sort');
    accepts({ sort: 'distance', near: '59,18' });
    rejects({ sort: '-distance' }, 'sort');
    // Farthest first is not offered: refused, where it was answered nearest first.
    rejects({ sort: '-distance', near: '59,18' }, 'sort');
    rejects({ sort: 'name,revenue' }, 'sort');
    rejects({ sort: 'size' }, 'sort');
    const r = parse({ sort: '-revenue' });
    expect(r.ok && r.query.sort).toEqual({ key: 'revenue', descending: true });
    const d = parse({ q: 'x' });
    expect(d.ok && d.query.sort.key).toBe('relevance');
    const n = parse({});
    expect(n.ok && n.query.sort.key).toBe('name');
  });

  it('enums match case-insensitively and without diacritics, as lists', () => {
    const r = parse({ legal_form: 'Aktiebolag,ekonomisk_forening', trend: 'VAXANDE' });
    expect(r.ok && r.query.filters.legal_form).toEqual(['aktiebolag', 'ekonomisk_förening']);
    expect(r.ok && r.query.filters.trend).toEqual(['växande']);
    rejects({ legal_form: 'abc' }, 'legal_form');
    rejects({ website_status: 'maybe' }, 'website_status');
    rejects({ employees_class: '3-7' }, 'employees_class');
  });

  it('legal forms also by the short forms a table shows (AB, HB, BRF), in any case', () => {
    const r = parse({ legal_form: 'AB,hb,Brf,aktiebolag' });
    expect(r.ok && r.query.filters.legal_form).toEqual(['aktiebolag', 'handelsbolag', 'bostadsrättsförening']);
    rejects({ legal_form: 'AB,XY' }, 'legal_form');
  });

  it('status: default aktiv, all lifts it', () => {
    const d = parse({});
    expect(d.ok && d.query.filters.status).toEqual(['aktiv']);
    const all = parse({ status: 'all' });
    expect(all.ok && all.query.filters.status).toBeNull();
    rejects({ status: 'sleeping' }, 'status');
  });

  it('county and municipality by name or code', () => {
    const r = parse({ county: 'Västra Götalands län,01,skane', municipality: 'goteborg,0180' });
    expect(r.ok && r.query.filters.county).toEqual(['14', '01', '12']);
    expect(r.ok && r.query.filters.municipality).toEqual(['1480', '0180']);
    rejects({ county: 'Atlantis' }, 'county');
    rejects({ municipality: '9999' }, 'municipality');
  });

  it('booleans are true or false', () => {
    accepts({ f_skatt: 'true', vat_registered: 'false', has_financials: '1', verified: '0' });
    rejects({ f_skatt: 'yes' }, 'f_skatt');
    rejects({ exclude_advertising_blocked: '' }, 'exclude_advertising_blocked');
  });

  it('fields and expand: known values only', () => {
    accepts({ fields: 'name,org_nr,address', expand: 'latest_financials' });
    rejects({ fields: 'name,secret' }, 'fields');
    rejects({ expand: 'owners' }, 'expand');
  });

  it('sni and category', () => {
    accepts({ sni: '4,43320,62' });
    rejects({ sni: '433201' }, 'sni');
    accepts({ category: 'bygg,snickerier' });
    rejects({ category: 'nope' }, 'category');
  });

  it('unknown parameters are refused by name', () => {
    rejects({ colour: 'red' }, 'colour', 'unknown_parameter');
    rejects({ Limit: '5' }, 'Limit', 'unknown_parameter');
  });
});
