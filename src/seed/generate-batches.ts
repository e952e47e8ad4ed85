// Companies in batches for the bulk loader. Generated inline: measured, handing batches over
// from a worker thread cost the main thread more (structured clone and GC) than it saved.
import type { Company } from '../core/company.js';
import { CompanyGenerator } from './generate-company.js';

const BATCH = 10_000;

export async function* generateBatches(seed: string, count: number): AsyncIterable<Company[]> {
  const generator = new CompanyGenerator(seed);
  for (let made = 0; made < count; ) {
    const n = Math.min(BATCH, count - made);
    const batch: Company[] = new Array(n);
    for (let i = 0; i < n; i++) batch[i] = generator.next();
    made += n;
    yield batch;
  }
}
