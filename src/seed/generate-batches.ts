// Companies in batches for a store's bulk loader, chunk by chunk (chunks.ts) in this thread:
// the same register the SQLite loader makes on several threads.
import type { Company } from '../core/company.js';
import { chunkCount, chunkRows, generateChunk } from './chunks.js';
import { IdentityStream } from './identities.js';

export async function* generateBatches(seed: string, count: number): AsyncIterable<Company[]> {
  const identities = new IdentityStream(seed);
  for (let k = 0; k < chunkCount(count); k++) yield generateChunk(seed, k, identities.take(chunkRows(k, count).size));
}
