// The company as webhook filters see it: what an outbox company event carries as `subject`.
import type { Company } from '../core/company.js';
import type { EventSubject } from './filters.js';

export function companySubject(c: Company): EventSubject {
  return {
    county: c.county_code,
    municipality: c.municipality_code,
    city: c.address.city,
    postal_code: c.address.postal_code.replace(/\s/g, ''),
    legal_form: c.legal_form,
    status: c.status,
    category: c.category.slug,
    sni: [...c.sni_codes],
    employees_class: c.employees_class,
    org_nr: c.org_nr,
  };
}
