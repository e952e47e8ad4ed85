// SCB's JurForm codes onto our legal forms. Used only when SCB is the first source to know an
// organisation (Bolagsverket owns the legal form of what it registers).
import type { LegalForm } from '../../core/values.js';
import { legalFormFromOrgNr } from '../open-data/legal-form-from-org-nr.js';

const FORMS: Record<string, LegalForm> = {
  '10': 'enskild_näringsidkare', // fysiska personer
  '21': 'handelsbolag', // enkla bolag (closest)
  '31': 'handelsbolag', // handelsbolag and kommanditbolag: SCB does not tell them apart
  '41': 'aktiebolag', // bankaktiebolag
  '42': 'aktiebolag', // försäkringsaktiebolag
  '43': 'aktiebolag', // europabolag
  '49': 'aktiebolag', // övriga aktiebolag
  '51': 'ekonomisk_förening',
  '53': 'bostadsrättsförening',
  '54': 'ekonomisk_förening', // kooperativa hyresrättsföreningar
  '61': 'ideell_förening',
  '62': 'ideell_förening', // samfälligheter (closest)
  '63': 'ideell_förening', // trossamfund
  '71': 'stiftelse',
  '72': 'stiftelse',
  '96': 'filial', // utländska juridiska personer
};

export function mapScbLegalForm(code: string, orgNr: string, isPerson: boolean): LegalForm {
  return FORMS[code] ?? legalFormFromOrgNr(orgNr, isPerson);
}
