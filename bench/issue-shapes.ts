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

export function discoverValues(db: Db): IssueValues {
  const top = (dim: string) =>
    db.prepare("SELECT value FROM company_counts WHERE dim = ? AND status = 'aktiv' ORDER BY n DESC, value LIMIT 1").pluck().get(dim) as string;
  const municipality = top('municipality');
  const m = municipalityByCode(municipality)!;
  const postalPrefix = db
    .prepare("SELECT substr(value, 1, 2) FROM company_counts WHERE dim = 'postal3' AND status = 'aktiv' GROUP BY 1 ORDER BY sum(n) DESC LIMIT 1")
    .pluck()
    .get() as string;
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
