// Valid, unique organisation numbers in the real scheme: the first digit tells the group,
// digits 3–4 are 20 or more for legal persons, and sole traders use a personal identity number.
import { luhnCheckDigit } from '../core/orgnr.js';
import type { LegalForm } from '../core/values.js';
import type { Random } from './random.js';

/** First three digits by legal form, as the real register's numbers commonly begin. */
const PREFIXES: Readonly<Record<Exclude<LegalForm, 'enskild_näringsidkare'>, readonly string[]>> = {
  aktiebolag: ['556', '559'],
  handelsbolag: ['916', '969'],
  kommanditbolag: ['916', '969'],
  ekonomisk_förening: ['769', '716'],
  bostadsrättsförening: ['716', '769'],
  ideell_förening: ['802', '822'],
  stiftelse: ['802', '817'],
  filial: ['516'],
};

export class OrgNumberFactory {
  private readonly used = new Set<string>();

  constructor(private readonly random: Random) {}

  next(form: LegalForm, birthYear: number): string {
    for (;;) {
      const nine = form === 'enskild_näringsidkare' ? this.personal(birthYear) : this.legal(form);
      const ten = nine + String(luhnCheckDigit(nine));
      if (this.used.has(ten)) continue;
      this.used.add(ten);
      return ten;
    }
  }

  private legal(form: Exclude<LegalForm, 'enskild_näringsidkare'>): string {
    return this.random.pick(PREFIXES[form]) + this.random.digits(6);
  }

  private personal(birthYear: number): string {
    const yy = String(birthYear % 100).padStart(2, '0');
    const mm = String(this.random.int(1, 12)).padStart(2, '0');
    const dd = String(this.random.int(1, 28)).padStart(2, '0');
    return yy + mm + dd + this.random.digits(3);
  }
}
