// Terminal tables: Swedish numbers, columns fitted to the width, streamed pages.
import { describe, expect, it } from 'vitest';
import { formatNumber, formatPercent, formatSek, shortLegalForm } from '../../src/cli/output/swedish.js';
import { fitColumns } from '../../src/cli/output/fit-columns.js';
import { DEFAULT_COLUMNS, fieldColumns, searchTableColumns } from '../../src/cli/output/table-columns.js';
import { TableFormatter } from '../../src/cli/output/table.js';
import { JsonFormatter } from '../../src/cli/output/json.js';
import { JsonlFormatter } from '../../src/cli/output/jsonl.js';
import { verticalTable } from '../../src/cli/output/vertical.js';

const NBSP = '\u00a0';
const rows = [
  { org_nr: '556677-8899', name: 'Exempel Sverige Aktiebolag med långt namn', legal_form: 'aktiebolag', address: { city: 'STOCKHOLM' }, employees_class: '10-19', revenue: 12345678 },
  { org_nr: '969676-1234', name: 'Åkes HB', legal_form: 'handelsbolag', address: { city: 'LUND' }, employees_class: '1-4', revenue: null },
];

describe('Swedish number formatting', () => {
  it('groups with a non-breaking space and uses a decimal comma', () => {
    expect(formatSek(1234567)).toBe(`1${NBSP}234${NBSP}567 kr`);
    expect(formatPercent(0.123)).toBe(`12,3${NBSP}%`);
    expect(formatNumber(1234.5)).toBe(`1${NBSP}234,5`);
    expect(formatSek(null)).toBe('');
    expect(shortLegalForm('aktiebolag')).toBe('AB');
    expect(shortLegalForm('bostadsrättsförening')).toBe('BRF');
  });
});

describe('tables', () => {
  it('fit the width: text columns shrink first, then the least important go', () => {
    const wide = fitColumns(DEFAULT_COLUMNS, rows, 200);
    expect(wide.map((f) => f.column.header)).toEqual(['ORG NR', 'NAME', 'FORM', 'CITY', 'EMPLOYEES', 'REVENUE']);
    const narrow = fitColumns(DEFAULT_COLUMNS, rows, 60);
    const width = narrow.reduce((s, f) => s + f.width, 0) + 2 * (narrow.length - 1);
    expect(width).toBeLessThanOrEqual(60);
    expect(narrow.map((f) => f.column.header)).toContain('REVENUE');
    expect(narrow.map((f) => f.column.header)).not.toContain('EMPLOYEES');
    const tiny = fitColumns(DEFAULT_COLUMNS, rows, 30);
    expect(tiny.map((f) => f.column.header)).toEqual(['ORG NR', 'NAME']);
  });

  it('with --fields on a narrow terminal, keep ids and org nrs whole and give back what dropping freed', () => {
    // Exploratory run, 2026-11-29: at 80 columns `--fields org_nr,name,address,category` showed
    // "c…" and "55966…", dropped both category columns, and left 13 columns of width unused.
    const keys = ['id', 'org_nr', 'name', 'address.street', 'address.postal_code', 'address.city', 'category.slug', 'category.name'];
    const sample = [
      { id: 'cmp_8f2k1x', org_nr: '559661-2345', name: 'Å AB', address: { street: 'Hamnplan 86', postal_code: '163 79', city: 'SPÅNGA' }, category: { slug: 'bygg-och-anlaggning', name: 'Bygg och anläggning' } },
    ];
    const fitted = fitColumns(fieldColumns(keys), sample, 80);
    const width = fitted.reduce((s, f) => s + f.width, 0) + 2 * (fitted.length - 1);
    expect(width).toBeLessThanOrEqual(80);
    const byKey = new Map(fitted.map((f) => [f.column.header, f.width]));
    expect(byKey.get('ID')).toBe('cmp_8f2k1x'.length);
    expect(byKey.get('ORG NR')).toBe('559661-2345'.length);
    // Nothing left over while a kept column is cut.
    const cut = fitted.filter((f) => f.width < Math.min(48, Math.max(f.column.header.length, [...f.column.value(sample[0])].length)));
    if (cut.length > 0) expect(width).toBeGreaterThanOrEqual(79);
  });

  it('render a header once and keep the widths for later pages, cutting with an ellipsis', () => {
    const t = new TableFormatter(DEFAULT_COLUMNS, 70);
    const first = t.page(rows.slice(0, 1));
    const second = t.page(rows.slice(1));
    const lines = (first + second).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ORG NR\s+NAME\s+FORM\s+CITY/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('…');
    expect(lines[1]).toContain(`12${NBSP}345${NBSP}678 kr`);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(70);
    expect(second).not.toContain('ORG NR');
  });

  it('widen a column on a later page for a number the first page did not show, never cutting it', () => {
    const small = { ...rows[0], name: 'Liten AB', address: { city: 'KARLSBORG' }, revenue: 9000 };
    const big = { ...rows[0], name: 'Stora Exempel Aktiebolag med mycket långt namn', address: { city: 'KARLSBORGS BRUK' }, revenue: 141904000 };
    for (const width of [200, 100, 72, 64]) {
      const t = new TableFormatter(DEFAULT_COLUMNS, width);
      const lines = (t.page([small]) + t.page([big])).trimEnd().split('\n');
      expect(lines[2], `width ${width}`).toContain(`141${NBSP}904${NBSP}000 kr`);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
      // With room to spare, nothing is cut at all.
      if (width === 200) expect(lines[2]).not.toContain('…');
      // The earlier page's columns are where they were: only what a value needs grows.
      expect(lines[1].indexOf('Liten AB')).toBe(lines[2].indexOf('Stora'));
    }
  });

  it('show a neighbour metres away as hundredths of a kilometre', () => {
    const t = new TableFormatter(searchTableColumns({ distance: true }), 120);
    const text = t.page([{ ...rows[1], distance_km: 0.016 }, { ...rows[1], distance_km: 12.345 }]);
    expect(text).toMatch(/\b0,02\n/);
    expect(text).toMatch(/\b12,3\n/);
  });

  it('vertical tables list every field of one record', () => {
    const text = verticalTable({ id: 'c1', address: { city: 'LUND' }, revenue: 1000, f_skatt: true, equity_ratio: 0.5 }, 80);
    expect(text).toMatch(/^address\.city\s+LUND$/m);
    expect(text).toMatch(new RegExp(`^revenue\\s+1${NBSP}000 kr$`, 'm'));
    expect(text).toMatch(/^f_skatt\s+yes$/m);
    expect(text).toMatch(new RegExp(`^equity_ratio\\s+50,0${NBSP}%$`, 'm'));
  });
});

describe('JSON formatters', () => {
  it('json streams one valid array across pages', () => {
    const f = new JsonFormatter();
    const text = f.start() + f.page(rows.slice(0, 1)) + f.page(rows.slice(1)) + f.end();
    expect(JSON.parse(text)).toEqual(rows);
    const empty = new JsonFormatter();
    expect(JSON.parse(empty.start() + empty.page([]) + empty.end())).toEqual([]);
  });

  it('jsonl writes one record a line', () => {
    const f = new JsonlFormatter();
    expect(f.page(rows).split('\n').filter(Boolean).map((l) => JSON.parse(l))).toEqual(rows);
  });
});
