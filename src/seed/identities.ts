// Legal form and organisation number of every company, drawn in one sequential stream: the only
// part of a company that must be unique across the whole register. Everything else is drawn per
// chunk (chunks.ts), so chunks can be made in any order, on any number of threads, and the
// register is the same.
import type { LegalForm } from '../core/values.js';
import { OrgNumberFactory } from './org-numbers.js';
import { Random, weighted } from './random.js';
import { LEGAL_FORM_SHARES, REGISTER_DATE } from './shares.js';

const REGISTER_YEAR = Number(REGISTER_DATE.slice(0, 4));

export interface Identities {
  forms: LegalForm[];
  /** Ten digits, no hyphen. */
  orgNrs: string[];
}

export class IdentityStream {
  private readonly random: Random;
  private readonly orgNumbers: OrgNumberFactory;

  constructor(seed: string | number) {
    this.random = new Random(`bolag:${seed}:identities`);
    this.orgNumbers = new OrgNumberFactory(this.random);
  }

  /** The next `n` companies' identities. */
  take(n: number): Identities {
    const forms: LegalForm[] = new Array(n);
    const orgNrs: string[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const form = weighted(this.random, LEGAL_FORM_SHARES);
      forms[i] = form;
      // A sole trader's number is the owner's personal identity number: a birth year is needed.
      orgNrs[i] = this.orgNumbers.next(form, REGISTER_YEAR - this.random.int(22, 75));
    }
    return { forms, orgNrs };
  }
}
