// Swedish number formatting for terminal tables: `1 234 567 kr`, `12,3 %`, `1 234`.
// Built on first use: creating an Intl.NumberFormat loads locale data, which costs tens of
// milliseconds that a JSONL run should not pay.
import { LEGAL_FORM_ABBREVIATIONS, type LegalForm } from '../../core/values.js';

let formats: { integer: Intl.NumberFormat; decimal: Intl.NumberFormat; percent: Intl.NumberFormat } | undefined;
function f() {
  return (formats ??= {
    integer: new Intl.NumberFormat('sv-SE', { maximumFractionDigits: 0 }),
    decimal: new Intl.NumberFormat('sv-SE', { maximumFractionDigits: 2 }),
    percent: new Intl.NumberFormat('sv-SE', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  });
}

export function formatSek(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : `${f().integer.format(value)} kr`;
}

export function formatPercent(fraction: number | null | undefined): string {
  return fraction === null || fraction === undefined ? '' : f().percent.format(fraction);
}

export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return Number.isInteger(value) ? f().integer.format(value) : f().decimal.format(value);
}

export function shortLegalForm(value: string | null | undefined): string {
  return value ? (LEGAL_FORM_ABBREVIATIONS[value as LegalForm] ?? value) : '';
}
