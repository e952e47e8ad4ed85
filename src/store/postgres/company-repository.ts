// Placeholder: the PostgreSQL company repository (search, slices, import, seeding) lands here.
import type { Company } from '../../core/company.js';
import type { SearchFilters, SearchQuery } from '../../core/search-params.js';
import type { ImportPlanner, ImportRecord, ImportResult } from '../import-types.js';
import type { CompanyRepository, CountResult, KeysetPosition, SearchPage } from '../store.js';
import type { PgDb } from './database.js';

const missing = (): never => {
  throw new Error('not implemented');
};

export class PgCompanyRepository implements CompanyRepository {
  constructor(readonly db: PgDb) {}
  async search(_q: SearchQuery, _a: KeysetPosition | null): Promise<SearchPage> {
    return missing();
  }
  async count(_f: SearchFilters, _b: number): Promise<CountResult> {
    return missing();
  }
  async get(_id: string): Promise<Company | null> {
    return missing();
  }
  async slice(): Promise<Company[]> {
    return missing();
  }
  async lastRow(): Promise<number> {
    return missing();
  }
  // eslint-disable-next-line require-yield
  async *stream(): AsyncIterable<Company> {
    missing();
  }
  async importRecords(_r: Iterable<ImportRecord>, _p: ImportPlanner): Promise<ImportResult> {
    return missing();
  }
  async bulkLoad(): Promise<number> {
    return missing();
  }
  async stats(): Promise<Record<string, number>> {
    return missing();
  }
}
