// When a source's legal-form code is unknown, the organisation number's group digit still says
// what kind of organisation it is (contract §2.3): the closest of our legal forms.
import type { LegalForm } from '../../core/values.js';

export function legalFormFromOrgNr(orgNr: string, isPerson: boolean): LegalForm {
  if (isPerson) return 'enskild_näringsidkare';
  switch (orgNr[0]) {
    case '5':
      return 'aktiebolag';
    case '7':
      return 'ekonomisk_förening';
    case '9':
      return 'handelsbolag';
    default:
      return 'ideell_förening'; // 2 public bodies, 8 associations and foundations, the rest
  }
}
