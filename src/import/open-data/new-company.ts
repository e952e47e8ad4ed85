// A company first seen in an open-data file: what the source gives, and for the rest the
// register's "unknown" values; the files carry no financial figures, website or employees.
import { NO_INTERNALS, type StoredCompany } from '../../store/import-types.js';
import { formatOrgNr } from '../../core/orgnr.js';
import { categoryBySlug } from '../../reference/categories.js';
import { NOWHERE } from './place-of.js';
import type { SourceRow } from './source-row.js';

export function blankCompany(row: SourceRow, id: string, now: string): StoredCompany {
  const other = categoryBySlug('ovrigt');
  return {
    id,
    org_nr: formatOrgNr(row.orgNr),
    name: row.name,
    legal_form: row.legalForm,
    status: 'aktiv',
    address: { street: '', postal_code: '', city: '' },
    ...NOWHERE,
    category: { slug: 'ovrigt', name: other?.name ?? 'Övrigt' },
    sni_codes: [],
    website: null,
    website_status: 'okänd',
    employees_class: '0',
    trend: 'okänd',
    revenue: null,
    profit: null,
    equity_ratio: null,
    revenue_growth: null,
    has_financials: false,
    f_skatt: false,
    vat_registered: false,
    employer_registered: false,
    verified: false,
    advertising_blocked: false,
    registration_date: row.registrationDate ?? '',
    updated_at: now,
    latest_financials: null,
    internal: { ...NO_INTERNALS },
  };
}
