// CompanyRepository over SQLite. Searching lives in company-search.ts, bulk loading in seeder.ts.
import type { Company } from '../../core/company.js';
import { rowFromCompanyId } from '../../core/company-id.js';
import { normalizeOrgNr } from '../../core/orgnr.js';
import type { SearchFilters, SearchQuery } from '../../core/search-params.js';
import type { ImportOptions, ImportPlanner, ImportRecord, ImportRecords, ImportResult } from '../import-types.js';
import { importCompanies } from './company-import.js';
import type { CompanyRepository, CountResult, KeysetPosition, SearchPage } from '../store.js';
import { type CompanyRow, companySelectList, distanceKmFrom, rowToCompany } from './company-row.js';
import { countCompanies, searchCompanies } from './company-search.js';
import type { Db } from './database.js';
import { filterSql, registerSearchFunctions } from './filter-sql.js';
import { readSlice } from './company-slices.js';
import { bulkLoadCompanies, type SeedProgress } from './seeder.js';
import { canLoadInThreads, loadInThreads, seedThreads } from './bulk/load.js';
import { generateBatches } from '../../seed/generate-batches.js';

export class SqliteCompanyRepository implements CompanyRepository {
  constructor(private readonly db: Db) {
    // The text filter is a SQL function; every connection that filters (exports too) needs it.
    registerSearchFunctions(db);
  }

  async search(query: SearchQuery, after: KeysetPosition | null): Promise<SearchPage> {
    return searchCompanies(this.db, query, after);
  }

  async count(filters: SearchFilters, budgetMs: number): Promise<CountResult> {
    return countCompanies(this.db, filters, budgetMs);
  }

  async get(idOrOrgNr: string, opts: { expand?: readonly string[] } = {}): Promise<Company | null> {
    const expand = opts.expand?.includes('latest_financials') ?? false;
    const row = this.findRow(idOrOrgNr, expand);
    return row ? rowToCompany(row, { expand }) : null;
  }

  async slice(filters: SearchFilters, afterRow: number, untilRow: number, opts: { expand?: readonly string[] } = {}): Promise<Company[]> {
    return readSlice(this.db, filters, afterRow, untilRow, opts.expand?.includes('latest_financials') ?? false);
  }

  async lastRow(): Promise<number> {
    return this.db.prepare('SELECT coalesce(max(rowid), 0) FROM companies').pluck().get() as number;
  }

  async *stream(filters: SearchFilters, opts: { batchSize?: number; expand?: readonly string[] } = {}): AsyncIterable<Company> {
    const expand = opts.expand?.includes('latest_financials') ?? false;
    const batchSize = opts.batchSize ?? 2000;
    const { sql, params } = filterSql(filters);
    const stmt = this.db.prepare(
      `SELECT ${companySelectList('c', expand)} FROM companies c WHERE c.rowid > ? AND ${sql} ORDER BY c.rowid LIMIT ?`,
    );
    const near = filters.near;
    let after = 0;
    for (;;) {
      // Each batch is its own read, so a long export never holds a read transaction open.
      const rows = stmt.all(after, ...params, batchSize) as CompanyRow[];
      for (const row of rows) {
        const company = rowToCompany(row, { expand });
        // As search does: with near, each record carries its distance.
        if (near) company.distance_km = distanceKmFrom(near, row);
        yield company;
      }
      if (rows.length < batchSize) return;
      after = rows[rows.length - 1].rowid;
    }
  }

  async importRecords(records: ImportRecords, plan: ImportPlanner, opts?: ImportOptions): Promise<ImportResult> {
    return importCompanies(this.db, records, plan, opts);
  }

  /** The next row number a new company would get: importers use it to name ids before writing. */
  nextRowId(): number {
    return (this.db.prepare('SELECT coalesce(max(rowid), 0) + 1 AS n FROM companies').pluck().get() as number);
  }

  async bulkLoad(batches: AsyncIterable<readonly Company[]>, total: number, onProgress?: SeedProgress): Promise<number> {
    return bulkLoadCompanies(this.db, batches, total, onProgress);
  }

  /** On worker threads when it can (bulk/load.ts), else the generated batches through bulkLoad. */
  async seedGenerated(seed: string, count: number, onProgress?: SeedProgress): Promise<number> {
    if (count > 0 && canLoadInThreads(this.db)) return loadInThreads(this.db, seed, count, seedThreads(), onProgress);
    return bulkLoadCompanies(this.db, generateBatches(seed, count), count, onProgress);
  }

  async stats(): Promise<Record<string, number>> {
    const one = (sql: string) => this.db.prepare(sql).pluck().get() as number;
    return {
      companies: one('SELECT count(*) FROM companies'),
      active: one("SELECT count(*) FROM companies WHERE status = 'aktiv'"),
      with_financials: one('SELECT count(*) FROM companies WHERE has_financials = 1'),
      advertising_blocked: one('SELECT count(*) FROM companies WHERE advertising_blocked = 1'),
      outbox_events: one('SELECT count(*) FROM outbox'),
      // What the workers have yet to do, for an operator watching a backlog drain.
      events_to_fan_out: one("SELECT coalesce((SELECT max(seq) FROM outbox), 0) - coalesce((SELECT seq FROM outbox_cursors WHERE name = 'webhooks'), 0)"),
      jobs_waiting: one("SELECT count(*) FROM jobs WHERE state = 'queued'"),
      database_bytes: one('SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()'),
    };
  }

  private findRow(idOrOrgNr: string, expand: boolean): CompanyRow | undefined {
    const select = `SELECT ${companySelectList('c', expand)} FROM companies c`;
    const rowid = rowFromCompanyId(idOrOrgNr);
    if (rowid !== null) return this.db.prepare(`${select} WHERE c.rowid = ?`).get(rowid) as CompanyRow | undefined;
    const orgNr = normalizeOrgNr(idOrOrgNr);
    if (orgNr === null) return undefined;
    return this.db.prepare(`${select} WHERE c.org_nr = ?`).get(orgNr) as CompanyRow | undefined;
  }
}
