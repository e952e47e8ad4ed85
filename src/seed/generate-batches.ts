// Companies in batches for a store's bulk loader, chunk by chunk (chunks.ts) in this thread:
// the same register the SQLite loader makes on several threads.
import type { Company } from '../core/company.js';
import { chunkCompanies, chunkCount, chunkRows } from './chunks.js';
import { IdentityStream } from './identities.js';

/** Small enough that a batch is written before it outlives the young generation (chunks.ts). */
const BATCH = 2_000;

export async function* generateBatches(seed: string, count: number): AsyncIterable<Company[]> {
  const identities = new IdentityStream(seed);
  for (let k = 0; k < chunkCount(count); k++) {
    let batch: Company[] = [];
    for (const c of chunkCompanies(seed, k, identities.take(chunkRows(k, count).size))) {
      batch.push(c);
      if (batch.length === BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }
}
