// What one open-data line does to the register: the source's own fields applied onto the
// stored company (or a new one), compared field by field, and the events the differences imply,
// the same events as an import of our own format (plan-record.ts diffEvents).
import type { Company } from '../../core/company.js';
import { isPersonalNumber } from '../../core/orgnr.js';
import { categoryForSni2025 } from '../../reference/sni2025.js';
import { type ImportOptions, type ImportPlanner, type PlannedWrite, SOURCE_BITS, type StoredCompany } from '../../store/import-types.js';
import { diffEvents } from '../plan-record.js';
import { deriveStatus } from './derive-status.js';
import { blankCompany } from './new-company.js';
import { NOWHERE, placeOf } from './place-of.js';
import type { SourceRow } from './source-row.js';

export const planSourceRow: ImportPlanner = (record, existing, id, now, quiet = false) => {
  const row = record.data.row as SourceRow | null;
  // A line that could not be read: the organisation stays as it was.
  if (row === null) return null;
  const before = existing ?? blankCompany(row, id ?? '', now);
  const after = applyRow(before, row);
  return planned(existing, after, now, quiet);
};

/** A company the source listed before and no longer does: its standing becomes `saknas`. */
export function planVanished(source: SourceRow['source'], opts: { spareSoleTraders?: boolean } = {}) {
  return (existing: StoredCompany, now: string): PlannedWrite | null => {
    // Where the store does not know the listed rows' org nrs before (ImportOptions.vanished.spare).
    if (opts.spareSoleTraders && isPersonalNumber(existing.org_nr.replace('-', ''))) return null;
    const internal = { ...existing.internal! };
    if (source === 'bolagsverket') {
      if (internal.bolagsverket_standing === 'saknas') return null;
      internal.bolagsverket_standing = 'saknas';
      internal.bolagsverket_hash = null; // should it come back unchanged, it is read again
    } else {
      if (internal.scb_activity === 'saknas') return null;
      internal.scb_activity = 'saknas';
      internal.scb_hash = null;
      // The address was SCB's: Bolagsverket's next import reads its line again and puts its own back.
      internal.bolagsverket_hash = null;
    }
    const after: StoredCompany = { ...existing, internal, status: deriveStatus(internal.bolagsverket_standing, internal.scb_activity, existing.status) };
    return planned(existing, after, now);
  };
}

/**
 * What each source's first load sets on most of the companies the other source listed before, as
 * applyRow writes them (ImportOptions.firstLoadWrites): only the indexes over these are built
 * again. SCB's names, forms and dates stand only for companies Bolagsverket does not list.
 */
export const FIRST_LOAD_WRITES: Readonly<Record<SourceRow['source'], NonNullable<ImportOptions['firstLoadWrites']>>> = {
  bolagsverket: [
    'name', 'legal_form', 'registration_date', 'status', 'description', 'address', 'municipality_code', 'county_code', 'location',
    'sources', 'bolagsverket_standing', 'bolagsverket_hash', 'updated_at',
  ],
  scb: [
    'address', 'municipality_code', 'county_code', 'location', 'category', 'sni_codes', 'status', 'advertising_blocked',
    'sources', 'scb_activity', 'scb_hash', 'updated_at',
  ],
};

function applyRow(before: StoredCompany, row: SourceRow): StoredCompany {
  const internal = { ...before.internal! };
  const after: StoredCompany = { ...before, internal };
  const knownToBolagsverket = (internal.sources & SOURCE_BITS.bolagsverket) !== 0;
  // Both files carry a postal address; SCB's wins where SCB lists the company, so that the two
  // weekly imports do not undo each other's address every week.
  const listedByScb = (internal.sources & SOURCE_BITS.scb) !== 0 && internal.scb_activity !== 'saknas';
  if (row.source === 'scb' || !listedByScb) {
    if (row.address) {
      const place = placeOf(row.address);
      // A known position inside the same municipality is better than its centre: kept.
      if (place.municipality_code === before.municipality_code && before.location !== null) place.location = before.location;
      Object.assign(after, place);
    } else {
      // Abroad, or none given: as a first load of this line would leave it, not the old address.
      Object.assign(after, { address: { street: '', postal_code: '', city: '' }, ...NOWHERE });
    }
  }
  if (row.source === 'bolagsverket') {
    internal.sources |= SOURCE_BITS.bolagsverket;
    internal.bolagsverket_standing = row.standing;
    internal.description = row.description;
    after.name = row.name;
    after.legal_form = row.legalForm;
    if (row.registrationDate) after.registration_date = row.registrationDate;
  } else {
    internal.sources |= SOURCE_BITS.scb;
    internal.scb_activity = row.activity;
    after.advertising_blocked = row.advertisingBlocked;
    after.sni_codes = row.sniCodes;
    if (row.sniCodes.length > 0) {
      const category = categoryForSni2025(row.sniCodes[0]);
      after.category = { slug: category.slug, name: category.name };
    }
    // SCB's name, form and date stand only for what Bolagsverket does not register.
    if (!knownToBolagsverket) {
      if (row.name) after.name = row.name;
      after.legal_form = row.legalForm;
      if (row.registrationDate) after.registration_date = row.registrationDate;
    }
  }
  after.status = deriveStatus(internal.bolagsverket_standing, internal.scb_activity, before.status);
  return after;
}

const COMPARED = ['name', 'legal_form', 'status', 'municipality_code', 'registration_date', 'advertising_blocked'] as const;

function planned(existing: StoredCompany | null, after: StoredCompany, now: string, quiet = false): PlannedWrite | null {
  if (existing && !differs(existing, after)) return null;
  after.updated_at = now;
  if (quiet) return { company: after, events: [] };
  const { internal: _a, ...afterRecord } = after;
  if (!existing) return { company: after, events: diffEvents(null, afterRecord as Company, now) };
  const { internal: _b, ...beforeRecord } = existing;
  // A change of the description alone (not a field of the record) is written without an event.
  return { company: after, events: diffEvents(beforeRecord as Company, afterRecord as Company, now) };
}

function differs(a: StoredCompany, b: StoredCompany): boolean {
  for (const k of COMPARED) if (a[k] !== b[k]) return true;
  if (a.address.street !== b.address.street || a.address.postal_code !== b.address.postal_code || a.address.city !== b.address.city) return true;
  if (a.category.slug !== b.category.slug || a.sni_codes.join() !== b.sni_codes.join()) return true;
  if ((a.location?.lat ?? null) !== (b.location?.lat ?? null) || (a.location?.lng ?? null) !== (b.location?.lng ?? null)) return true;
  const x = a.internal!;
  const y = b.internal!;
  return x.description !== y.description || x.sources !== y.sources || x.bolagsverket_standing !== y.bolagsverket_standing || x.scb_activity !== y.scb_activity;
}
