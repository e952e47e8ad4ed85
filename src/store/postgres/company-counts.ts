// company_counts: companies per (dimension, value, status) for the filters that include_total
// answers without counting rows (search/count.ts). Rebuilt whole by a bulk load; moved by each
// import in its own transaction, so it is always exactly the register's.
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
`;

/** Changes to the counts, gathered over a transaction of an import and written at its end. */
export class CountChanges {
  /** By dimension, value and status: nested maps, where a key made of the three was a new string for each company and dimension. */
  private readonly changes = new Map<string, Map<string, Map<string, number>>>();

  /** A company enters (+1) or leaves (-1) the counts with the values of this row. */
  add(row: Pick<CompanyRow, 'county_code' | 'municipality_code' | 'category_slug' | 'legal_form' | 'status'>, sign: 1 | -1): void {
    this.bump('county', row.county_code, row.status, sign);
    this.bump('municipality', row.municipality_code, row.status, sign);
    this.bump('category', row.category_slug, row.status, sign);
    this.bump('legal_form', row.legal_form, row.status, sign);
  }

  private bump(dim: string, value: string, status: string, sign: 1 | -1): void {
    let values = this.changes.get(dim);
    if (!values) this.changes.set(dim, (values = new Map()));
    let statuses = values.get(value);
    if (!statuses) values.set(value, (statuses = new Map()));
    statuses.set(status, (statuses.get(status) ?? 0) + sign);
  }

  async write(client: pg.ClientBase): Promise<void> {
    const dims: string[] = [];
    const values: string[] = [];
    const statuses: string[] = [];
    const ns: number[] = [];
    for (const [dim, byValue] of this.changes) {
      for (const [value, byStatus] of byValue) {
        for (const [status, n] of byStatus) {
          if (n === 0) continue;
          dims.push(dim);
          values.push(value);
          statuses.push(status);
          ns.push(n);
        }
      }
    }
    if (ns.length === 0) return;
    // Rows at zero stay: a value once in use is cheaper kept than deleted and made again.
    await client.query(
      `INSERT INTO company_counts (dim, value, status, n)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])
       ON CONFLICT (dim, value, status) DO UPDATE SET n = company_counts.n + excluded.n`,
      [dims, values, statuses, ns],
    );
  }
}
