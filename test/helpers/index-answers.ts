// What a register's tables and indexes answer, as short digests: two registers that give the same
// digests hold the same rows and indexes (the bulk loads' tests compare one way of building a
// register with another), and the checks say whether each index agrees with its table.
import { createHash } from 'node:crypto';
import type { Db } from '../../src/store/sqlite/database.js';

/** A digest of a query's rows. */
export function digestOf(db: Db): (sql: string) => string {
  return (sql) => createHash('sha256').update(JSON.stringify(db.prepare(sql).raw(true).all())).digest('hex').slice(0, 16);
}

/** The answers of the SNI table, the full-text and the spatial index, the index list, and the integrity checks. */
export function indexAnswers(db: Db): Record<string, string> {
  const digest = digestOf(db);
  const fts = (match: string) => digest(`SELECT rowid FROM companies_fts WHERE companies_fts MATCH '${match}' ORDER BY rowid`);
  return {
    fts: fts('{name org_nr} : "ab"'),
    ftsPrefix: fts('bygg*'),
    ftsIndustry: fts('industry : konsult*'),
    ftsOrgNr: fts('org_nr : 1*'),
    sni: digest('SELECT * FROM company_sni ORDER BY 1, 2'),
    geo: digest('SELECT rowid FROM companies_geo WHERE min_lat >= 55 AND max_lat <= 70 AND min_lng >= 10 AND max_lng <= 25 ORDER BY rowid'),
    indexes: digest("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name"),
    // Every B-tree index holds exactly the entries of its table's rows.
    integrity: JSON.stringify(db.prepare('PRAGMA integrity_check').pluck().all()),
    ftsIntegrity: String(db.exec("INSERT INTO companies_fts (companies_fts, rank) VALUES ('integrity-check', 0)") && 'ok'),
    rtree: String(db.prepare("SELECT rtreecheck('companies_geo')").pluck().get()),
  };
}
