// `bolag db seed` and first start: a fresh deterministic register in the store.
import type { Store } from '../store/store.js';
import { generateBatches } from '../seed/generate-batches.js';

export const DEFAULT_SEED_COUNT = 1_200_000;
export const DEFAULT_SEED = 'bolag';

export async function seedRegister(
  store: Store,
  opts: { count?: number; seed?: string; onProgress?: (done: number, total: number, phase: 'rows' | 'indexes') => void } = {},
): Promise<number> {
  const count = opts.count ?? DEFAULT_SEED_COUNT;
  const seed = opts.seed ?? DEFAULT_SEED;
  if (store.companies.seedGenerated) return store.companies.seedGenerated(seed, count, opts.onProgress);
  return store.companies.bulkLoad(generateBatches(seed, count), count, opts.onProgress);
}
