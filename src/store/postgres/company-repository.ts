// CompanyRepository over PostgreSQL, with the SQLite store's semantics (the same tests run on
// both). Searching lives in company-search.ts and search/, bulk loading in company-seeder.ts.
import type { Company } from '../../core/company.js';
import { rowFromCompanyId } from '../../core/company-id.js';
import { normalizeOrgNr } from '../../core/orgnr.js';
import type { SearchFilters, SearchQuery } from '../../core/search-params.js';
import type { ImportOptions, ImportPlanner, ImportRecord, ImportRecords, ImportResult } from '../import-types.js';
import type { CompanyRepository, CountResult, KeysetPosition, SearchPage } from '../store.js';
import { importCompanies } from './company-import.js';
import { type CompanyRow, distanceKmFrom, readColumns, rowToCompany } from './company-row.js';
import { searchCompanies } from './company-search.js';
import { bulkLoadCompanies, type SeedProgress } from './company-seeder.js';
import type { PgDb, Queryable } from './database.js';
import { countCompanies } from './search/count.js';
import { allConditions, buildConditions } from './search/filters.js';
import { numbered } from './search/sql.js';

export class PgCompanyRepository implements CompanyRepository {
  constructor(readonly db: PgDb) {}

  async search(query: SearchQuery, after: KeysetPosition | null): Promise<SearchPage> {
    return searchCompanies(this.db, query, after);
  }

  async count(filters: SearchFilters, budgetMs: number): Promise<CountResult> {
    return countCompanies(this.db, filters, budgetMs);
  }

  async get(idOrOrgNr: string, opts: { expand?: readonly string[] } = {}): Promise<Company | null> {
    const expand = opts.expand?.includes('latest_financials') ?? false;
    const row = await findRow(this.db, idOrOrgNr, expand);
    return row ? rowToCompany(row, { expand }) : null;
  }

  async slice(filters: SearchFilters, afterRow: number, untilRow: number, opts: { expand?: readonly string[] } = {}): Promise<Company[]> {
    return this.readRows(filters, afterRow, untilRow, Number.MAX_SAFE_INTEGER, opts.expand?.includes('latest_financials') ?? false);
  }

  async lastRow(): Promise<number> {
    return (await this.db.query<{ n: number }>('SELECT coalesce(max(rowid), 0) AS n FROM companies')).rows[0].n;
  }

  async *stream(filters: SearchFilters, opts: { batchSize?: number; expand?: readonly string[] } = {}): AsyncIterable<Company> {
    const expand = opts.expand?.includes('latest_financials') ?? false;
    const batchSize = opts.batchSize ?? 2000;
    let after = 0;
    for (;;) {
      // Each batch is its own statement: a long export holds no snapshot open.
      const batch = await this.readRows(filters, after, null, batchSize, expand);
      yield* batch;
      if (batch.length < batchSize) return;
      after = rowFromCompanyId(batch[batch.length - 1].id) ?? after;
    }
  }

  /** Matching companies with afterRow < rowid <= untilRow, in rowid order, at most `limit`. */
  private async readRows(filters: SearchFilters, afterRow: number, untilRow: number | null, limit: number, expand: boolean): Promise<Company[]> {
    const conds = buildConditions(filters);
    const where = allConditions(conds);
    const bounds = untilRow === null ? 'c.rowid > ?' : 'c.rowid > ? AND c.rowid <= ?';
    const params = untilRow === null ? [afterRow] : [afterRow, untilRow];
    const limitSql = Number.isSafeInteger(limit) && limit < Number.MAX_SAFE_INTEGER ? ` LIMIT ${limit}` : '';
    const text = `SELECT ${readColumns(expand)} FROM companies c WHERE ${bounds} AND ${where.sql} ORDER BY c.rowid${limitSql}`;
    const { rows } = await this.db.query<CompanyRow>(numbered(text), [...params, ...where.params]);
    const near = filters.near;
    return rows.map((row) => {
      const company = rowToCompany(row, { expand });
      if (near) company.distance_km = distanceKmFrom(near, row);
      return company;
    });
  }

  async importRecords(records: ImportRecords, plan: ImportPlanner, opts?: ImportOptions): Promise<ImportResult> {
    return importCompanies(this.db, records, plan, opts);
  }

  async bulkLoad(batches: AsyncIterable<readonly Company[]>, total: number, onProgress?: SeedProgress): Promise<number> {
    return bulkLoadCompanies(this.db, batches, total, onProgress);
  }

  async stats(): Promise<Record<string, number>> {
    const { rows } = await this.db.query<Record<string, number>>(`
      SELECT (SELECT count(*) FROM companies) AS companies,
             (SELECT count(*) FROM companies WHERE status = 'aktiv') AS active,
             (SELECT count(*) FROM companies WHERE has_financials = 1) AS with_financials,
             (SELECT count(*) FROM companies WHERE advertising_blocked = 1) AS advertising_blocked,
             (SELECT count(*) FROM outbox) AS outbox_events,
             coalesce((SELECT max(seq) FROM outbox), 0) - coalesce((SELECT seq FROM outbox_cursors WHERE name = 'webhooks'), 0) AS events_to_fan_out,
             (SELECT count(*) FROM jobs WHERE state = 'queued') AS jobs_waiting,
             (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')) AS database_bytes`);
    return rows[0];
  }
}

async function findRow(db: Queryable, idOrOrgNr: string, expand: boolean, forUpdate = false): Promise<CompanyRow | undefined> {
  const select = `SELECT ${readColumns(expand)} FROM companies c`;
  const lock = forUpdate ? ' FOR UPDATE' : '';
  const rowid = rowFromCompanyId(idOrOrgNr);
  // Row numbers are 32-bit here; a larger one names no company.
  if (rowid !== null) return rowid > 2 ** 31 - 1 ? undefined : (await db.query<CompanyRow>(`${select} WHERE c.rowid = $1${lock}`, [rowid])).rows[0];
  const orgNr = normalizeOrgNr(idOrOrgNr);
  if (orgNr === null) return undefined;
  return (await db.query<CompanyRow>(`${select} WHERE c.org_nr = $1${lock}`, [orgNr])).rows[0];
}
