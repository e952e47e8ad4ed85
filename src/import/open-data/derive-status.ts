// The register's status from what each source says (docs/open-data-import.md). Bolagsverket
// decides deregistration and proceedings; SCB whether a registered organisation is active.
// Kept as two separate facts, so the order of the weekly imports does not matter.
import type { Status } from '../../core/values.js';

export function deriveStatus(bolagsverket: string | null, scb: string | null, current: Status): Status {
  if (bolagsverket === 'avregistrerad' || bolagsverket === 'saknas') return 'avregistrerad';
  if (bolagsverket === 'konkurs' || bolagsverket === 'likvidation' || bolagsverket === 'rekonstruktion') return bolagsverket;
  // Without Bolagsverket (associations, public bodies), SCB's word on leaving counts.
  if (bolagsverket === null && (scb === 'avregistrerad' || scb === 'saknas')) return 'avregistrerad';
  // SCB's JEStat 9 (left its population) for an organisation Bolagsverket still lists: not
  // active, as FtgStat 0 or 9 (which JEStat 9 hides) would say. SCB drops such a line after six
  // months, which says no more than the JEStat 9 before it: still not active.
  if (scb === 'vilande' || (bolagsverket === 'registrerad' && (scb === 'avregistrerad' || scb === 'saknas'))) return 'vilande';
  if (bolagsverket === 'registrerad' || scb === 'aktiv') return 'aktiv';
  return current;
}
