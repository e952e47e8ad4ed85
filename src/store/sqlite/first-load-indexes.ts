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
  // Said first, and durably: should the load die before its builds, the next import builds them
  // (repairSideIndexes). The B-trees need no such note: every open makes those missing.
  markSideIndexesPending(db, indexes.side);
  dropCompanyIndexes(db, (sql) => !indexes.drops(sql));
  if (!empty) emptySideIndexes(db, indexes.side);
}

/** Empties these side indexes (built again in bulk from the rows). */
export function emptySideIndexes(db: Db, side: SideIndexes): void {
  if (side.geo) {
    // Dropped and created again (its own statement), in one transaction: a DELETE of an R-tree
    // removes entry by entry (3 s for 170,000).
    const geo = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'companies_geo'").pluck().get() as string;
    db.transaction(() => db.exec(`DROP TABLE companies_geo; ${geo}`))();
  }
  if (side.sni) db.exec('DELETE FROM company_sni');
  if (side.fts) db.exec("INSERT INTO companies_fts (companies_fts) VALUES ('delete-all')");
}

/** The settings row naming the side indexes a first load emptied and has not built again yet. */
const PENDING = 'first_load_side_indexes';

/** The side indexes a first load emptied and did not build again (it died, or its builds failed); null when none. */
export function pendingSideIndexes(db: Db): SideIndexes | null {
  const value = db.prepare('SELECT value FROM settings WHERE name = ?').pluck().get(PENDING) as string | undefined;
  return value === undefined ? null : (JSON.parse(value) as SideIndexes);
}

/** These side indexes as well as any already pending. */
export function withPending(db: Db, side: SideIndexes): SideIndexes {
  const pending = pendingSideIndexes(db);
  return pending ? { sni: side.sni || pending.sni, fts: side.fts || pending.fts, geo: side.geo || pending.geo } : side;
}

function markSideIndexesPending(db: Db, side: SideIndexes): void {
  db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(PENDING, JSON.stringify(withPending(db, side)));
}

/** Once the side indexes are built again. */
export function clearSideIndexesPending(db: Db): void {
  db.prepare('DELETE FROM settings WHERE name = ?').run(PENDING);
}
