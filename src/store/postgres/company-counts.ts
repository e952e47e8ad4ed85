// company_counts: companies per (dimension, value, status) for the filters that include_total
// answers without counting rows (search/count.ts), and every SNI code in use (the sni filter
// expands prefixes to them). Rebuilt whole by a bulk load; moved by each import in its own
// transaction, so it is always exactly the register's.
import type pg from 'pg';
import type { CompanyRow } from './company-row.js';

/** Fills the table from the register in two scans (after a bulk load). */
export const REBUILD_COUNTS = `
  TRUNCATE company_counts;
  INSERT INTO company_counts (dim, value, status, n)
    SELECT CASE WHEN county_code IS NOT NULL THEN 'county' WHEN municipality_code IS NOT NULL THEN 'municipality'
                WHEN category_slug IS NOT NULL THEN 'category' ELSE 'legal_form' END,
           coalesce(county_code, municipality_code, category_slug, legal_form), status, count(*)
    FROM companies
    GROUP BY GROUPING SETS ((county_code, status), (municipality_code, status), (category_slug, status), (legal_form, status));
  INSERT INTO company_counts (dim, value, status, n)
    SELECT 'sni', code, status, count(*) FROM companies, unnest(sni) AS code GROUP BY code, status;
`;

/** Changes to the counts, gathered over an import and written at its end. */
export class CountChanges {
  private readonly changes = new Map<string, number>();

  /** A company enters (+1) or leaves (-1) the counts with the values of this row. */
  add(row: Pick<CompanyRow, 'county_code' | 'municipality_code' | 'category_slug' | 'legal_form' | 'status' | 'sni_codes'>, sign: 1 | -1): void {
    const bump = (dim: string, value: string) => {
      const key = `${dim}\u0000${value}\u0000${row.status}`;
      this.changes.set(key, (this.changes.get(key) ?? 0) + sign);
    };
    bump('county', row.county_code);
    bump('municipality', row.municipality_code);
    bump('category', row.category_slug);
    bump('legal_form', row.legal_form);
    for (const code of new Set(row.sni_codes ? row.sni_codes.split(',') : [])) bump('sni', code);
  }

  async write(client: pg.ClientBase): Promise<void> {
    const changed = [...this.changes].filter(([, n]) => n !== 0).map(([key, n]) => [...key.split('\u0000'), n] as const);
    if (changed.length === 0) return;
    // Rows at zero stay: an SNI code once in use keeps matching its prefix at no cost.
    await client.query(
      `INSERT INTO company_counts (dim, value, status, n)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])
       ON CONFLICT (dim, value, status) DO UPDATE SET n = company_counts.n + excluded.n`,
      [changed.map((c) => c[0]), changed.map((c) => c[1]), changed.map((c) => c[2]), changed.map((c) => c[3])],
    );
  }
}
