// How one field of a company reads in a terminal: money in kronor, fractions as percent,
// booleans as yes/no, nested objects flattened by the caller, null as empty.
import { formatNumber, formatPercent, formatSek } from './swedish.js';

const MONEY = /(^|\.)(revenue|profit|net_revenue|total_assets)$/;
const FRACTION = /(^|\.)(equity_ratio|revenue_growth)$/;

export function displayValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (MONEY.test(key)) return formatSek(value);
    if (FRACTION.test(key)) return formatPercent(value);
    if (/(^|\.)(lat|lng)$/.test(key)) return String(value);
    if (/(^|\.)fiscal_year$/.test(key)) return String(value);
    return formatNumber(value);
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
