// Flags derived from the core schemas, and validation that names the flag.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { FILTER_PARAMS, OUTPUT_PARAMS, SEARCH_PARAMS, SEARCH_QUERY_SCHEMA } from '../../src/core/search-params.js';
import { LEGAL_FORMS, SORT_VALUES } from '../../src/core/values.js';
import { attributeName, deriveFlags } from '../../src/cli/flags/derive.js';
import { addParamFlags, readParamFlags } from '../../src/cli/flags/add-flags.js';
import { validateParams } from '../../src/cli/flags/validate.js';
import { filterFlags, outputFlags, SEARCH_LABELS } from '../../src/cli/flags/search-flags.js';
import { UsageError } from '../../src/cli/errors/index.js';

describe('flags derived from SEARCH_PARAMS', () => {
  const flags = [...filterFlags(), ...outputFlags()];
  const byParam = Object.fromEntries(flags.map((f) => [f.param, f]));

  it('has one flag for every GET /companies parameter, q included (also typed as words)', () => {
    expect(flags.map((f) => f.param).sort()).toEqual(Object.keys(SEARCH_PARAMS).sort());
  });

  it('names flags in kebab-case and knows their kinds and values', () => {
    expect(byParam.revenue_min).toMatchObject({ name: 'revenue-min', kind: 'number' });
    expect(byParam.f_skatt).toMatchObject({ name: 'f-skatt', kind: 'boolean' });
    expect(byParam.registered_from).toMatchObject({ kind: 'date' });
    expect(byParam.legal_form).toMatchObject({ kind: 'enum', values: [...LEGAL_FORMS] });
    expect(byParam.sort.values).toEqual(SORT_VALUES);
    expect(byParam.near).toMatchObject({ kind: 'text', valueName: '<lat,lng>' });
    expect(byParam.limit).toMatchObject({ kind: 'number' });
  });

  it('knows the list parameters, and a repeated list flag adds to it while any other is refused', () => {
    for (const p of ['county', 'municipality', 'category', 'sni', 'city', 'postal_code', 'legal_form', 'status', 'fields', 'expand']) expect(byParam[p]?.list, p).toBe(true);
    for (const p of ['revenue_min', 'near', 'radius_km', 'registered_from', 'limit', 'cursor']) expect(byParam[p]?.list, p).toBeUndefined();
    const cmd = new Command('t').exitOverride().configureOutput({ writeErr: () => {} });
    addParamFlags(cmd, flags);
    cmd.parse(['--county', '01', '--county', 'Skåne', '--status', 'aktiv'], { from: 'user' });
    expect(readParamFlags(cmd.opts(), flags)).toEqual({ county: '01,Skåne', status: 'aktiv' });
    const twice = new Command('t').exitOverride().configureOutput({ writeErr: () => {} });
    addParamFlags(twice, flags);
    expect(() => twice.parse(['--revenue-min', '5', '--revenue-min', '6'], { from: 'user' })).toThrow(/given twice/);
  });

  it('parses --x / --no-x booleans and values back into API parameters', () => {
    const cmd = new Command('t').exitOverride();
    addParamFlags(cmd, flags);
    cmd.parse(['--f-skatt', '--no-verified', '--revenue-min', '1000', '--sort', '-revenue', '--legal-form', 'aktiebolag,handelsbolag'], { from: 'user' });
    expect(readParamFlags(cmd.opts(), flags)).toEqual({
      f_skatt: true,
      verified: false,
      revenue_min: '1000',
      sort: '-revenue',
      legal_form: 'aktiebolag,handelsbolag',
    });
  });

  it('maps commander attribute names', () => {
    expect(attributeName('exclude-advertising-blocked')).toBe('excludeAdvertisingBlocked');
  });

  it('derives for any parameter map (exports reuse FILTER_PARAMS)', () => {
    expect(deriveFlags(FILTER_PARAMS).length).toBe(Object.keys(FILTER_PARAMS).length);
    expect(deriveFlags(OUTPUT_PARAMS, { skip: ['cursor'] }).map((f) => f.param)).not.toContain('cursor');
  });
});

describe('validation before any request', () => {
  const validate = (params: Record<string, unknown>) =>
    validateParams(SEARCH_QUERY_SCHEMA, params, { labels: SEARCH_LABELS, params: Object.keys(SEARCH_PARAMS) });
  const fail = (params: Record<string, unknown>) => {
    try {
      validate(params);
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return e as UsageError;
    }
    throw new Error('expected a UsageError');
  };

  it('accepts and normalises what the server accepts', () => {
    expect(validate({ legal_form: 'Aktiebolag', county: 'Skåne', f_skatt: true, limit: '10' })).toMatchObject({
      legal_form: ['aktiebolag'],
      county: ['12'],
      f_skatt: true,
      limit: 10,
    });
  });

  it('names the flag in the message', () => {
    expect(fail({ limit: '0' })).toMatchObject({ flag: '--limit', message: 'Invalid --limit: must be an integer from 1 to 100.' });
    expect(fail({ sort: 'relevance' }).message).toBe('Invalid --sort: relevance needs the query [q].');
    expect(fail({ sort: 'distance' }).message).toBe('Invalid --sort: distance needs --near.');
    expect(fail({ radius_km: '3' }).message).toBe('Invalid --radius-km: needs --near.');
    expect(fail({ profit_min: '5', profit_max: '1' }).message).toBe('Invalid --profit-min: must not be above --profit-max.');
    expect(fail({ registered_from: '2024-05-01', registered_to: '2024-01-01' }).message).toBe(
      'Invalid --registered-from: must not be after --registered-to.',
    );
    expect(fail({ q: 'x'.repeat(201) }).flag).toBe('the query [q]');
    expect(fail({ website_status: 'kanske' }).message).toMatch(/^Invalid --website-status: has an unknown value "kanske"; expected one of har_hemsida, ingen_hemsida, okänd\.$/);
    expect(fail({ bogus: '1' }).message).toBe('Unknown option --bogus.');
  });
});
