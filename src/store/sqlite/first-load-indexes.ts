// Which indexes a source's first load drops and builds once at its end. Into an empty register,
// all of them. Onto companies another source listed before, only those over the columns this
// source writes on most of them (ImportOptions.firstLoadWrites): built again, an index costs as
// much as for the whole register, also where the load changes none of its entries (SCB's first
// load onto Bolagsverket's: the names' full-text index, the ids, the dates).
import { columnsOfFields } from './company-row.js';
import { ALL_SIDE_INDEXES, SIDE_INDEX_COLUMNS, type SideIndexes } from './company-writer.js';
import { type Db, dropCompanyIndexes } from './database.js';
import { FINGERPRINTS_INDEX } from './migrations.js';

export interface FirstLoadIndexes {
  /** Whether the B-tree index of this CREATE statement is dropped and built at the end. */
  drops(sql: string): boolean;
  /** The side indexes emptied and built in bulk at the end; the others follow each write. */
  side: SideIndexes;
}

export function firstLoadIndexes(opts: { empty: boolean; writes?: readonly string[] }): FirstLoadIndexes {
  if (opts.empty) return { drops: () => true, side: ALL_SIDE_INDEXES };
  const written = opts.writes ? columnsOfFields(opts.writes) : null;
  const over = (columns: Iterable<string>) => written === null || [...columns].some((c) => written.has(c));
  const side: SideIndexes = { sni: over(SIDE_INDEX_COLUMNS.sni), fts: over(SIDE_INDEX_COLUMNS.fts), geo: over(SIDE_INDEX_COLUMNS.geo) };
  return {
    side,
    drops: (sql) => {
      // The source's fingerprint is written on every company it lists.
      if (sql === FINGERPRINTS_INDEX) return true;
      const target = / ON (\w+) (.*)$/s.exec(sql);
      if (!target) return true;
      // The SNI table's own index goes with the table, refilled in bulk.
      if (target[1] === 'company_sni') return side.sni;
      // Each batch looks its keys up by org nr.
      if (/^\(org_nr\)$/.test(target[2].trim())) return false;
      return over(target[2].match(/\w+/g) ?? []);
    },
  };
}

/** Drops what the first load builds at its end; onto a filled register, empties the side indexes it rebuilds. */
export function dropFirstLoadIndexes(db: Db, indexes: FirstLoadIndexes, empty: boolean): void {
  dropCompanyIndexes(db, (sql) => !indexes.drops(sql));
  if (empty) return;
  if (indexes.side.geo) {
    // Dropped and created again (its own statement), in one transaction: a DELETE of an R-tree
    // removes entry by entry (3 s for 170,000).
    const geo = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'companies_geo'").pluck().get() as string;
    db.transaction(() => db.exec(`DROP TABLE companies_geo; ${geo}`))();
  }
  if (indexes.side.sni) db.exec('DELETE FROM company_sni');
  if (indexes.side.fts) db.exec("INSERT INTO companies_fts (companies_fts) VALUES ('delete-all')");
}
