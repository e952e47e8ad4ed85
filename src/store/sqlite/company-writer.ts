// Writes a company to the four places it lives in: the table, its SNI codes, the full-text
// index and the spatial index. Shared by the bulk seeder and the importer.
import type { Statement as DriverStatement } from 'better-sqlite3';
import type { Company } from '../../core/company.js';
import type { CompanyInternals } from '../import-types.js';
import { COMPANY_COLUMNS, type CompanyRow, companyRowValues, companyToRow, ftsValues, INTERNAL_COLUMNS } from './company-row.js';
import type { Db } from './database.js';
import { LiteralInsert } from './literal-insert.js';
import { packRtree, readPoints } from './bulk/packed-rtree.js';
import { canStream, countPoints, packRtreeStreamed } from './bulk/streamed-rtree.js';

type Statement = DriverStatement<unknown[]>;

/** The three indexes beside the companies table, each maintained row by row or left to buildIndexesInBulk. */
export interface SideIndexes {
  sni: boolean;
  fts: boolean;
  geo: boolean;
}
export const ALL_SIDE_INDEXES: SideIndexes = { sni: true, fts: true, geo: true };
/** The columns each side index is made from (a write that changes none of them leaves it as it is). */
export const SIDE_INDEX_COLUMNS: Readonly<Record<keyof SideIndexes, readonly string[]>> = {
  sni: ['sni_codes'],
  fts: ['name', 'description', 'org_nr'], // as ftsValues
  geo: ['lat', 'lng'],
};

const INTERNAL_COLUMN_SET: ReadonlySet<string> = new Set(INTERNAL_COLUMNS);

/**
 * The columns (all but rowid) whose new value differs from the stored row's, into `out`; how
 * many. Compiled with the names written out (as companyRowValues): a loop over the names is a
 * keyed load per column, 2.4 s of SCB's first load onto Bolagsverket's companies.
 */
const changedColumns = new Function(
  'row',
  'internal',
  'before',
  'out',
  `let n = 0; ${[
    ...COMPANY_COLUMNS.filter((c) => c !== 'rowid').map((c) => `if (row.${c} !== before.${c}) out[n++] = '${c}';`),
    ...INTERNAL_COLUMNS.map((c) => `if (internal.${c} !== before.${c}) out[n++] = '${c}';`),
  ].join(' ')} return n;`,
) as (row: CompanyRow, internal: CompanyInternals, before: CompanyRow & CompanyInternals, out: string[]) => number;

export class CompanyWriter {
  private readonly insertCompany;
  private readonly insertPositional;
  private readonly updateCompany;
  private readonly insertSni;
  private readonly deleteSni;
  private readonly insertFts;
  private readonly deleteFts;
  private readonly insertGeo;
  private readonly deleteGeo;
  private readonly updates = new Map<string, Statement>();
  /** One array for the values of each insert (companyRowValues fills the row's part). */
  private readonly values: unknown[] = new Array(COMPANY_COLUMNS.length + INTERNAL_COLUMNS.length);
  private readonly rowValues: unknown[] = new Array(COMPANY_COLUMNS.length);
  /** The columns an update changes (changedColumns). */
  private readonly changed: string[] = new Array(COMPANY_COLUMNS.length + INTERNAL_COLUMNS.length);

  constructor(private readonly db: Db) {
    const cols = COMPANY_COLUMNS.join(', ');
    const all = [...COMPANY_COLUMNS, ...INTERNAL_COLUMNS];
    this.insertCompany = new LiteralInsert(db, all);
    this.insertPositional = db.prepare(`INSERT INTO companies (${cols}) VALUES (${COMPANY_COLUMNS.map(() => '?').join(', ')})`);
    const sets = all.filter((c) => c !== 'rowid').map((c) => `${c} = ?`).join(', ');
    this.updateCompany = db.prepare(`UPDATE companies SET ${sets} WHERE rowid = ?`);
    this.insertSni = db.prepare('INSERT OR IGNORE INTO company_sni (code, company_rowid) VALUES (?, ?)');
    this.deleteSni = db.prepare('DELETE FROM company_sni WHERE company_rowid = ?');
    this.insertFts = db.prepare('INSERT INTO companies_fts (rowid, name, industry, org_nr) VALUES (?, ?, ?, ?)');
    this.deleteFts = db.prepare('DELETE FROM companies_fts WHERE rowid = ?');
    this.insertGeo = db.prepare('INSERT INTO companies_geo (rowid, min_lat, max_lat, min_lng, max_lng) VALUES (?, ?, ?, ?, ?)');
    this.deleteGeo = db.prepare('DELETE FROM companies_geo WHERE rowid = ?');
  }

  /** The row alone; the seeder builds the secondary indexes in bulk afterwards (buildIndexesInBulk). */
  insertRowOnly(company: Company, rowid: number): CompanyRow {
    // Positional binding: markedly cheaper than named parameters over a million rows.
    const row = companyToRow(company, rowid);
    // Spread, not the array: the driver reads an array element by element through V8's API.
    this.insertPositional.run(...companyRowValues(row, this.rowValues));
    return row;
  }

  /** `indexes`: those a first load leaves to buildIndexesInBulk are not written. */
  insert(company: Company, rowid: number, internal: CompanyInternals, indexes: SideIndexes = ALL_SIDE_INDEXES): CompanyRow {
    const row = companyToRow(company, rowid);
    const values = companyRowValues(row, this.values);
    for (let i = 0; i < INTERNAL_COLUMNS.length; i++) values[COMPANY_COLUMNS.length + i] = internal[INTERNAL_COLUMNS[i]];
    this.insertCompany.run(values);
    this.writeIndexes(row, internal.description, indexes);
    return row;
  }

  /**
   * With `previous` (the stored row), only the columns that differ are set and only the indexes
   * they feed are rewritten: SQLite rewrites every index whose column an UPDATE names, changed
   * or not, and that is most of what an import's update costs.
   */
  replace(company: Company, rowid: number, internal: CompanyInternals, indexes: SideIndexes = ALL_SIDE_INDEXES, previous?: CompanyRow & CompanyInternals): CompanyRow {
    const row = companyToRow(company, rowid);
    let changed: string[] | null = null;
    if (!previous) {
      this.updateCompany.run(...COMPANY_COLUMNS.filter((c) => c !== 'rowid').map((c) => row[c]), ...INTERNAL_COLUMNS.map((c) => internal[c]), rowid);
    } else {
      const n = changedColumns(row, internal, previous, this.changed);
      if (n === 0) return row;
      changed = this.changed.slice(0, n);
      const args = changed.map((c) => (INTERNAL_COLUMN_SET.has(c) ? internal[c as keyof CompanyInternals] : row[c as keyof CompanyRow]));
      args.push(rowid);
      this.updateOf(changed).run(...args);
    }
    const differs = (cols: readonly string[]) => changed === null || cols.some((c) => changed.includes(c));
    if (indexes.sni && differs(SIDE_INDEX_COLUMNS.sni)) {
      this.deleteSni.run(rowid);
      for (const code of row.sni_codes.split(',')) if (code) this.insertSni.run(code, rowid);
    }
    if (indexes.fts && differs(SIDE_INDEX_COLUMNS.fts)) {
      this.deleteFts.run(rowid);
      this.insertFts.run(rowid, ...ftsValues(row, internal.description));
    }
    if (indexes.geo && differs(SIDE_INDEX_COLUMNS.geo)) {
      this.deleteGeo.run(rowid);
      if (row.lat !== null && row.lng !== null) this.insertGeo.run(rowid, row.lat, row.lat, row.lng, row.lng);
    }
    return row;
  }

  private updateOf(columns: readonly string[]): Statement {
    const key = columns.join(',');
    let stmt = this.updates.get(key);
    if (!stmt) {
      stmt = this.db.prepare<unknown[]>(`UPDATE companies SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE rowid = ?`);
      if (this.updates.size < 1000) this.updates.set(key, stmt);
    }
    return stmt;
  }

  private writeIndexes(row: CompanyRow, description: string, indexes: SideIndexes): void {
    if (indexes.sni) for (const code of row.sni_codes.split(',')) if (code) this.insertSni.run(code, row.rowid);
    // Industry words are matched through the SNI and category names (search/text-query.ts);
    // the industry column holds the business description the open-data files give.
    if (indexes.fts) this.insertFts.run(row.rowid, ...ftsValues(row, description));
    if (indexes.geo && row.lat !== null && row.lng !== null) this.insertGeo.run(row.rowid, row.lat, row.lat, row.lng, row.lng);
  }

}


/**
 * How the spatial index is packed: with the points sorted in memory (~32 bytes a point at the
 * peak; the seeder's: 1.2 million points in 2.4–2.8 CPU-s), or sorted by SQLite, which spills to
 * disk (~4 bytes a rowid; 3.0–3.1 CPU-s with an import's cache; an import's first load, whose
 * peak memory the arrays were). The same tree either way (bench/spatial-pack.ts measures both).
 */
export type SpatialPack = 'in-memory' | 'streamed';

/** The companies with a position, as both packers read them. */
const POINTS = 'SELECT rowid, lat, lng FROM companies WHERE lat IS NOT NULL AND lng IS NOT NULL';

/**
 * Fills the SNI, full-text and spatial indexes (those `only` names) from the companies table
 * set-wise: far faster than row-by-row inserts for a fresh register. The full-text index is left in one segment:
 * left in the dozens its build flushed, the next writes' automatic merges would cascade into the
 * large ones and rewrite all of it (4.5 s of a full-size weekly import's 35).
 */
export function buildIndexesInBulk(db: Db, opts: { spatial: SpatialPack; only?: SideIndexes }): void {
  const only = opts.only ?? ALL_SIDE_INDEXES;
  if (only.sni) {
    db.exec(`
      INSERT INTO company_sni (code, company_rowid)
        SELECT j.value, c.rowid FROM companies c, json_each('["' || replace(c.sni_codes, ',', '","') || '"]') j
        WHERE c.sni_codes != '' ORDER BY 1, 2;
    `);
  }
  if (only.geo) buildSpatialIndex(db, opts.spatial);
  if (!only.fts) return;
  db.exec(`
    INSERT INTO companies_fts (companies_fts, rank) VALUES ('automerge', 0);
    INSERT INTO companies_fts (rowid, name, industry, org_nr)
      SELECT rowid, name, description, substr(org_nr, 7) FROM companies ORDER BY rowid; -- as ftsValues
    INSERT INTO companies_fts (companies_fts, rank) VALUES ('automerge', 4);
    INSERT INTO companies_fts (companies_fts) VALUES ('optimize');
  `);
}

/**
 * The spatial index is packed, not inserted into (bulk/packed-rtree.ts): its shadow tables are
 * written directly, which better-sqlite3's defensive mode allows only in unsafe mode (the
 * streamed packer also writes them while it reads the sorted points, which unsafe mode allows).
 */
function buildSpatialIndex(db: Db, spatial: SpatialPack): void {
  db.unsafeMode(true);
  try {
    packSpatialIndex(db, spatial);
  } finally {
    db.unsafeMode(false);
  }
}

/** companies_geo packed from the companies; in unsafe mode (buildIndexesInBulk; bench/spatial-pack.ts alone). */
export function packSpatialIndex(db: Db, spatial: SpatialPack): void {
  if (spatial === 'streamed') {
    // A first load numbers the rows from 1 without gaps, so an array by rowid holds the leaves;
    // rowids far beyond the points (never from a first load) are packed in memory instead.
    const points = countPoints(db, POINTS);
    if (canStream(points)) return packRtreeStreamed(db, 'companies_geo', POINTS, points);
  }
  // The highest rowid bounds the points (rows are numbered from 1); pages of the arrays beyond
  // the points are never written, so never resident. A number beyond any register: grown.
  const highest = (db.prepare('SELECT max(rowid) FROM companies').pluck().get() as number | null) ?? 0;
  packRtree(db, 'companies_geo', readPoints(db, `${POINTS} ORDER BY rowid`, highest <= 1 << 26 ? highest : 0));
}
