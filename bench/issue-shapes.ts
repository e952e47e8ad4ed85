// The search shapes of issue 13, with values found in the register rather than picked by hand:
// the municipality with the most active companies (and its centre for `near`), the category with
// the most, the commonest two-digit postal prefix, the commonest employee class but the
// smallest, and the word most names hold. Used by the search bench and by the plan-pinning test.
import type { Db } from '../src/store/sqlite/database.js';
import { municipalityByCode } from '../src/reference/municipalities.js';
import { EMPLOYEES_CLASSES } from '../src/core/values.js';

export type Params = Record<string, string>;

export interface IssueValues {
  municipality: string;
  centre: string;
  category: string;
  postalPrefix: string;
  employeesClass: string;
  commonWord: string;
}

const COLUMN: Record<string, string> = { municipality: 'municipality_code', category: 'category_slug', county: 'county_code', postal2: 'substr(postal_code, 1, 2)' };

/** The most common values of a dimension among active companies: from the statistics, or counted where a register has none. */
export function topValues(db: Db, dim: 'municipality' | 'category' | 'county' | 'postal2', n: number): string[] {
  const stats = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'company_counts'").get() !== undefined;
  if (stats && dim === 'postal2') {
    return db.prepare("SELECT substr(value, 1, 2) FROM company_counts WHERE dim = 'postal3' AND status = 'aktiv' GROUP BY 1 ORDER BY sum(n) DESC, 1 LIMIT ?").pluck().all(n) as string[];
  }
  if (stats) return db.prepare("SELECT value FROM company_counts WHERE dim = ? AND status = 'aktiv' ORDER BY n DESC, value LIMIT ?").pluck().all(dim, n) as string[];
  return db.prepare(`SELECT ${COLUMN[dim]} FROM companies WHERE status = 'aktiv' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ?`).pluck().all(n) as string[];
}

export function discoverValues(db: Db): IssueValues {
  const top = (dim: 'municipality' | 'category') => topValues(db, dim, 1)[0];
  const municipality = top('municipality');
  const m = municipalityByCode(municipality)!;
  const postalPrefix = topValues(db, 'postal2', 1)[0];
  const rank = db.prepare('SELECT employees_rank FROM companies WHERE rowid % 97 = 0 AND employees_rank > 0 GROUP BY 1 ORDER BY count(*) DESC LIMIT 1').pluck().get() as number;
  return { municipality, centre: `${m.lat},${m.lng}`, category: top('category'), postalPrefix, employeesClass: EMPLOYEES_CLASSES[rank], commonWord: commonWord(db) };
}

/** The word most names hold, counted over a sample of names. */
function commonWord(db: Db): string {
  const counts = new Map<string, number>();
  for (const name of db.prepare('SELECT name FROM companies WHERE rowid % 53 = 0').pluck().all() as string[]) {
    for (const w of new Set(name.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
}

/** Each shape of the issue's table, by name, as query parameters. */
export function issueShapes(v: IssueValues): Record<string, Params> {
  return {
    'near-dense': { near: v.centre, radius_km: '10' },
    'q-short-common': { q: `Å ${v.commonWord.toUpperCase()}` },
    'municipality-category': { municipality: v.municipality, category: v.category },
    'postal-employees': { postal_code: v.postalPrefix, employees_class: v.employeesClass },
    'total-legal-form': { legal_form: 'aktiebolag', include_total: 'true' },
  };
}

/** The issue's classes for the search bench: each shape over the top few values found. */
export function issueClasses(db: Db): { name: string; what: string; raw: string[]; total?: boolean }[] {
  const v = discoverValues(db);
  const municipalities = topValues(db, 'municipality', 3);
  const centres = municipalities.map((code) => {
    const m = municipalityByCode(code)!;
    return `${m.lat},${m.lng}`;
  });
  const categories = topValues(db, 'category', 3);
  const prefixes = topValues(db, 'postal2', 3);
  const q = (s: string) => new URLSearchParams({ q: s }).toString();
  return [
    { name: 'i-near-dense', what: `near the densest municipalities' centres (${municipalities.join(', ')}), 10 km, name order`, raw: centres.map((c) => `near=${c}&radius_km=10`) },
    { name: 'i-q-short', what: `q = a one-letter word and the commonest name word ("Å ${v.commonWord.toUpperCase()}")`, raw: [q(`Å ${v.commonWord.toUpperCase()}`), q(`Ö ${v.commonWord}`), q(`A ${v.commonWord}`)] },
    {
      name: 'i-muni-category',
      what: `the largest municipality (${municipalities[0]}) and the broadest categories (${categories.join(', ')})`,
      raw: categories.map((c) => `municipality=${municipalities[0]}&category=${c}`),
    },
    { name: 'i-postal-employees', what: `the commonest postal prefixes (${prefixes.join(', ')}) and employee class ${v.employeesClass}`, raw: prefixes.map((p) => `postal_code=${p}&employees_class=${v.employeesClass}`) },
    {
      name: 'i-total-broad',
      what: 'include_total on one broad filter (legal_form=aktiebolag, the largest county and municipality, every status)',
      raw: ['include_total=true&legal_form=aktiebolag', `include_total=true&municipality=${municipalities[0]}`, `include_total=true&county=${topValues(db, 'county', 1)[0]}`, 'include_total=true&status=all'],
      total: true,
    },
  ];
}
