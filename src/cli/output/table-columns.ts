// The columns of `bolag search` as a table: the default set, or one column per requested field.
import { flattenRecord } from '../../core/csv.js';
import { displayValue } from './display-value.js';
import { shortLegalForm } from './swedish.js';

export type Row = Record<string, unknown>;

export interface TableColumn {
  header: string;
  value(row: Row): string;
  align: 'left' | 'right';
  /** Narrowest useful width when the terminal is tight; columns at their minimum are dropped next. */
  min: number;
  /** Numbers are never cut: a column that may not shrink is dropped instead. */
  shrink?: boolean;
  /** Lower numbers are dropped first when even the minimum widths do not fit; Infinity never. */
  keep: number;
}

const flatCache = new WeakMap<Row, Record<string, unknown>>();
function flat(row: Row): Record<string, unknown> {
  let f = flatCache.get(row);
  if (!f) flatCache.set(row, (f = flattenRecord(row)));
  return f;
}

const get = (row: Row, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v === null || typeof v !== 'object' ? undefined : (v as Row)[k]), row);

export const DEFAULT_COLUMNS: TableColumn[] = [
  { header: 'ORG NR', value: (r) => String(r.org_nr ?? ''), align: 'left', min: 11, keep: Infinity },
  { header: 'NAME', value: (r) => String(r.name ?? ''), align: 'left', min: 12, keep: Infinity },
  { header: 'FORM', value: (r) => shortLegalForm(r.legal_form as string), align: 'left', min: 4, keep: 2 },
  { header: 'CITY', value: (r) => String(get(r, 'address.city') ?? ''), align: 'left', min: 6, keep: 3 },
  { header: 'EMPLOYEES', value: (r) => String(r.employees_class ?? ''), align: 'right', min: 9, keep: 1, shrink: false },
  { header: 'REVENUE', value: (r) => displayValue('revenue', r.revenue), align: 'right', min: 10, keep: 4, shrink: false },
];

const DISTANCE_COLUMN: TableColumn = {
  header: 'KM',
  // Tenths of a kilometre, hundredths under one (a neighbour 16 m away is 0,02, not 0).
  value: (r) => (typeof r.distance_km === 'number' ? r.distance_km.toLocaleString('sv-SE', { maximumFractionDigits: r.distance_km < 1 ? 2 : 1 }) : ''),
  align: 'right',
  min: 4,
  keep: 5,
  shrink: false,
};

const NUMERIC = /(revenue|profit|ratio|growth|assets|employees$|distance|lat$|lng$)/;
/** Values that mean nothing cut short: read whole or not at all. */
const IDENTIFIER = /^(id|org_nr|registration_date|updated_at|sni_codes|(.*\.)?(postal_code|municipality_code|county_code|slug))$/;

/** One column per field (nested fields flattened: address → address.street, …). */
export function fieldColumns(columns: readonly string[]): TableColumn[] {
  return columns.map((key, i) => ({
    header: key.toUpperCase().replaceAll('_', ' '),
    value: (r: Row) => displayValue(key, flat(r)[key]),
    align: NUMERIC.test(key) ? 'right' : 'left',
    shrink: !NUMERIC.test(key) && !IDENTIFIER.test(key),
    min: Math.min(key.length, 8),
    keep: key === 'id' || key === 'org_nr' || key === 'name' ? Infinity : columns.length - i,
  }));
}

export function searchTableColumns(opts: { tableColumns?: readonly string[]; distance?: boolean }): TableColumn[] {
  if (opts.tableColumns) return fieldColumns(opts.tableColumns);
  return opts.distance ? [...DEFAULT_COLUMNS, DISTANCE_COLUMN] : DEFAULT_COLUMNS;
}
