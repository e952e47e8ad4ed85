// Writes a company to the four places it lives in: the table, its SNI codes, the full-text
// index and the spatial index. Shared by the bulk seeder and the importer.
import type { Company } from '../../core/company.js';
import { categoryName } from '../../core/place-names.js';
import { sniName } from '../../reference/sni.js';
import { COMPANY_COLUMNS, type CompanyRow, companyToRow, ftsValues } from './company-row.js';
import type { Db } from './database.js';

export class CompanyWriter {
  private readonly insertCompany;
  private readonly updateCompany;
  private readonly insertSni;
  private readonly deleteSni;
  private readonly insertFts;
  private readonly deleteFts;
  private readonly insertGeo;
  private readonly deleteGeo;
  private readonly industryCache = new Map<string, string>();

  constructor(db: Db) {
    const cols = COMPANY_COLUMNS.join(', ');
    const params = COMPANY_COLUMNS.map((c) => `@${c}`).join(', ');
    this.insertCompany = db.prepare(`INSERT INTO companies (${cols}) VALUES (${params})`);
    const sets = COMPANY_COLUMNS.filter((c) => c !== 'rowid').map((c) => `${c} = @${c}`).join(', ');
    this.updateCompany = db.prepare(`UPDATE companies SET ${sets} WHERE rowid = @rowid`);
    this.insertSni = db.prepare('INSERT OR IGNORE INTO company_sni (code, company_rowid) VALUES (?, ?)');
    this.deleteSni = db.prepare('DELETE FROM company_sni WHERE company_rowid = ?');
    this.insertFts = db.prepare('INSERT INTO companies_fts (rowid, name, industry, org_nr) VALUES (?, ?, ?, ?)');
    this.deleteFts = db.prepare('DELETE FROM companies_fts WHERE rowid = ?');
    this.insertGeo = db.prepare('INSERT INTO companies_geo (rowid, min_lat, max_lat, min_lng, max_lng) VALUES (?, ?, ?, ?, ?)');
    this.deleteGeo = db.prepare('DELETE FROM companies_geo WHERE rowid = ?');
  }

  insert(company: Company, rowid: number): CompanyRow {
    const row = companyToRow(company, rowid);
    this.insertCompany.run(row);
    this.writeIndexes(row);
    return row;
  }

  replace(company: Company, rowid: number): CompanyRow {
    const row = companyToRow(company, rowid);
    this.updateCompany.run(row);
    this.deleteSni.run(rowid);
    this.deleteFts.run(rowid);
    this.deleteGeo.run(rowid);
    this.writeIndexes(row);
    return row;
  }

  private writeIndexes(row: CompanyRow): void {
    for (const code of row.sni_codes.split(',')) if (code) this.insertSni.run(code, row.rowid);
    this.insertFts.run(row.rowid, ...ftsValues(row, this.industry(row)));
    if (row.lat !== null && row.lng !== null) this.insertGeo.run(row.rowid, row.lat, row.lat, row.lng, row.lng);
  }

  /** Category and SNI names: what "industry" means for free-text search. */
  private industry(row: CompanyRow): string {
    const key = `${row.category_slug}|${row.sni_codes}`;
    let text = this.industryCache.get(key);
    if (text === undefined) {
      const names = row.sni_codes.split(',').map((c) => sniName(c) ?? '');
      text = [categoryName(row.category_slug), ...names].join(' ');
      if (this.industryCache.size < 100_000) this.industryCache.set(key, text);
    }
    return text;
  }
}
