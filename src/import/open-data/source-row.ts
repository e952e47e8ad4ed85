// What one line of an open-data file says about one organisation, in the register's terms,
// before it is merged with what is stored. Each source fills only the fields it owns.
import type { LegalForm } from '../../core/values.js';

/** Bolagsverket's view of the organisation's standing; `saknas` once it vanished from the file. */
export type BolagsverketStanding = 'registrerad' | 'avregistrerad' | 'konkurs' | 'likvidation' | 'rekonstruktion' | 'saknas';
/** SCB's view of the organisation's activity; `saknas` once it vanished from the file. */
export type ScbActivity = 'aktiv' | 'vilande' | 'avregistrerad' | 'saknas';

export interface PostalAddress {
  street: string;
  /** Five digits. */
  postalCode: string;
  city: string;
}

interface Common {
  line: number;
  /** Ten digits. */
  orgNr: string;
  isPerson: boolean;
  address: PostalAddress | null;
}

export interface BolagsverketRow extends Common {
  source: 'bolagsverket';
  name: string;
  legalForm: LegalForm;
  /** YYYY-MM-DD, or null when the file has none. */
  registrationDate: string | null;
  standing: BolagsverketStanding;
  description: string;
}

export interface ScbRow extends Common {
  source: 'scb';
  /** Used only when SCB is the first to name the organisation; Bolagsverket owns the name. */
  name: string;
  legalForm: LegalForm;
  registrationDate: string | null;
  activity: ScbActivity;
  /** Five-digit SNI 2025 codes as given, primary first, `00000` (unknown) left out. */
  sniCodes: string[];
  advertisingBlocked: boolean;
}

export type SourceRow = BolagsverketRow | ScbRow;

/** A line that could not be read: counted and reported, never silently dropped. */
export class RowError extends Error {
  constructor(readonly line: number, message: string) {
    super(message);
    this.name = 'RowError';
  }
}
