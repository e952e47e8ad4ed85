// Bolagsverket's organisation forms (`AB-ORGFO` …) onto our nine legal forms. Several of theirs
// share one of ours; the table in docs/open-data-import.md lists every code.
import type { LegalForm } from '../../core/values.js';
import { legalFormFromOrgNr } from '../open-data/legal-form-from-org-nr.js';

const FORMS: Record<string, LegalForm> = {
  AB: 'aktiebolag', // aktiebolag
  BAB: 'aktiebolag', // bankaktiebolag
  FAB: 'aktiebolag', // försäkringsaktiebolag
  TPAB: 'aktiebolag', // tjänstepensionsaktiebolag
  SE: 'aktiebolag', // europabolag (Societas Europaea)
  HB: 'handelsbolag',
  EEIG: 'handelsbolag', // europeisk ekonomisk intressegruppering: Swedish law treats it as a handelsbolag
  KB: 'kommanditbolag',
  E: 'enskild_näringsidkare',
  EK: 'ekonomisk_förening',
  BF: 'ekonomisk_förening', // bostadsförening
  KHF: 'ekonomisk_förening', // kooperativ hyresrättsförening
  SCE: 'ekonomisk_förening', // europakooperativ
  MB: 'ekonomisk_förening', // medlemsbank
  SB: 'ekonomisk_förening', // sparbank
  FF: 'ekonomisk_förening', // försäkringsförening
  OFB: 'ekonomisk_förening', // ömsesidigt försäkringsbolag
  TPF: 'ekonomisk_förening', // tjänstepensionsförening
  OTPB: 'ekonomisk_förening', // ömsesidigt tjänstepensionsbolag
  BFL: 'ekonomisk_förening', // bankföretag i annan form (closest: a member-owned association)
  SF: 'ekonomisk_förening', // sambruksförening
  BRF: 'bostadsrättsförening',
  I: 'ideell_förening',
  EGTS: 'ideell_förening', // europeisk gruppering för territoriellt samarbete (public law)
  FOF: 'ideell_förening', // försäkringsförmedlare i annan form
  TSF: 'ideell_förening', // trossamfund
  S: 'stiftelse',
  FL: 'filial',
};

/** The form of each code as written (a few dozen recur on millions of lines). */
const BY_RAW = new Map<string, LegalForm | null>();

/** `AB-ORGFO` → `aktiebolag`; an unknown or empty code falls back on the org nr's group digit. */
export function mapBolagsverketLegalForm(raw: string, orgNr: string, isPerson: boolean): LegalForm {
  let form = BY_RAW.get(raw);
  if (form === undefined) {
    form = FORMS[raw.replace(/-ORGFO$/, '').trim().toUpperCase()] ?? null;
    // Bounded: a dirty file could write a different code on every line.
    if (BY_RAW.size < 1000) BY_RAW.set(raw, form);
  }
  return form ?? legalFormFromOrgNr(orgNr, isPerson);
}
