// The shapes of issue 13 with values found in the register itself, not picked to be easy: the
// municipality with the most companies (near its centre, 10 km, default sort; with its broadest
// category), a one-letter name word with the word most names hold ("Å AB"), the commonest postal
// prefix with the commonest employee class, and include_total on the commonest legal form.
// Only through the Store interface, so that SQLite and PostgreSQL get the same shapes.
import type { Company } from '../../src/core/company.js';
import { normalizeFilters } from '../../src/core/search-params.js';
import { fold } from '../../src/core/text.js';
import { topCategories } from '../../src/reference/categories.js';
import { MUNICIPALITIES } from '../../src/reference/municipalities.js';
import type { Store } from '../../src/store/store.js';

export interface Shapes {
  paths: string[];
  total: string;
}

const commonest = <T>(values: Iterable<T>, keep: (v: T) => boolean = () => true): T => {
  const counts = new Map<T, number>();
  for (const v of values) if (keep(v)) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
};

export async function discoverShapes(store: Store): Promise<Shapes> {
  const count = async (f: Parameters<typeof normalizeFilters>[0]) => (await store.companies.count(normalizeFilters(f), 10_000)).total;
  let densest = { code: '', n: -1 };
  for (const m of MUNICIPALITIES) {
    const n = await count({ municipality: [m.code] });
    if (n > densest.n) densest = { code: m.code, n };
  }
  let broad = { slug: '', n: -1 };
  for (const c of topCategories()) {
    const n = await count({ municipality: [densest.code], category: [c.slug] });
    if (n > broad.n) broad = { slug: c.slug, n };
  }
  const inCity = await store.companies.slice(normalizeFilters({ municipality: [densest.code] }), 0, 200_000);
  const located = inCity.filter((c) => c.location).slice(0, 2000);
  const mid = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const centre = `${mid(located.map((c) => c.location!.lat)).toFixed(4)},${mid(located.map((c) => c.location!.lng)).toFixed(4)}`;

  const sample: Company[] = await store.companies.slice(normalizeFilters({ status: ['all'] }), 0, 20_000);
  const words = sample.flatMap((c) => fold(c.name).match(/[\p{L}\p{N}]+/gu) ?? []);
  const common = commonest(words);
  const letter = commonest(words, (w) => w.length === 1 && /\p{L}/u.test(w));
  const original = sample.flatMap((c) => c.name.split(/\s+/)).find((w) => fold(w) === letter) ?? letter;
  const postal = commonest(sample.map((c) => c.address.postal_code.slice(0, 2)));
  const employees = commonest(sample.map((c) => c.employees_class));
  const legalForm = commonest(sample.map((c) => c.legal_form));
  const q = (p: Record<string, string>) => new URLSearchParams(p).toString();
  return {
    paths: [
      q({ near: centre, radius_km: '10' }),
      q({ q: `${original.toUpperCase()} ${common.toUpperCase()}` }),
      q({ municipality: densest.code, category: broad.slug }),
      q({ postal_code: postal, employees_class: employees }),
    ],
    total: q({ include_total: 'true', legal_form: legalForm }),
  };
}
