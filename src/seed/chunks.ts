// The register in chunks of CHUNK companies: chunk k holds rows k·CHUNK+1 … and is drawn from
// its own seed, given its identities (identities.ts). The same chunk comes out the same on any
// thread, so the bulk loader can make chunks in parallel and the register does not depend on
// how many threads made it.
import type { Company } from '../core/company.js';
import { CompanyGenerator } from './generate-company.js';
import type { Identities } from './identities.js';

export const CHUNK = 20_000;

export function chunkCount(count: number): number {
  return Math.ceil(count / CHUNK);
}

/** Rows of chunk k: [first, first + size). */
export function chunkRows(k: number, count: number): { first: number; size: number } {
  const first = k * CHUNK + 1;
  return { first, size: Math.max(0, Math.min(CHUNK, count - k * CHUNK)) };
}

/**
 * The companies of chunk k one at a time. A consumer that writes each away keeps none alive:
 * held in an array of 20,000, every company outlived the young generation and garbage
 * collection took a third of the generator's time.
 */
export function* chunkCompanies(seed: string, k: number, ids: Identities): Generator<Company> {
  const generator = new CompanyGenerator(`${seed}:chunk:${k}`, k * CHUNK);
  for (let i = 0; i < ids.forms.length; i++) yield generator.next({ form: ids.forms[i], orgNr: ids.orgNrs[i] });
}
