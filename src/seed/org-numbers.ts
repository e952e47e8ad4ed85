// Valid, unique organisation numbers in the real scheme: the first digit tells the group,
// digits 3–4 are 20 or more for legal persons, and sole traders use a personal identity number.
import { luhnCheckDigit } from '../core/orgnr.js';
import type { LegalForm } from '../core/values.js';
import type { Random } from './random.js';
import { SeenNumbers } from './seen-numbers.js';

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
  private readonly used = new SeenNumbers();

  constructor(private readonly random: Random) {}

  next(form: LegalForm, birthYear: number): string {
    for (;;) {
      const nine = form === 'enskild_näringsidkare' ? this.personal(birthYear) : this.legal(form);
      const check = luhnCheckDigit(nine);
      if (!this.used.add(Number(nine) * 10 + check)) continue;
      return nine + String(check);
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
