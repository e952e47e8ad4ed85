// Companies in batches, generated on a worker thread when the compiled worker is available
// (the CLI and benchmarks), else inline (tests running from TypeScript sources).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Company } from '../core/company.js';
import { CompanyGenerator } from './generate-company.js';

const BATCH = 10_000;
const WORKER_THRESHOLD = 50_000;

export function generateBatches(seed: string, count: number): AsyncIterable<Company[]> {
  const workerUrl = new URL('./generate-worker.js', import.meta.url);
  if (count >= WORKER_THRESHOLD && existsSync(fileURLToPath(workerUrl))) return fromWorker(workerUrl, seed, count);
  return inline(seed, count);
}

async function* inline(seed: string, count: number): AsyncIterable<Company[]> {
  const generator = new CompanyGenerator(seed);
  for (let made = 0; made < count; ) {
    const n = Math.min(BATCH, count - made);
    const batch: Company[] = [];
    for (let i = 0; i < n; i++) batch.push(generator.next());
    made += n;
    yield batch;
  }
}

async function* fromWorker(url: URL, seed: string, count: number): AsyncIterable<Company[]> {
  const worker = new Worker(url, { workerData: { seed, count, batchSize: BATCH } });
  const queue: (Company[] | null)[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  worker.on('message', (batch: Company[] | null) => {
    queue.push(batch);
    wake?.();
  });
  worker.on('error', (e) => {
    failure = e;
    wake?.();
  });
  try {
    for (;;) {
      while (queue.length === 0 && !failure) await new Promise<void>((r) => (wake = r));
      if (failure) throw failure;
      const batch = queue.shift()!;
      if (batch === null) return;
      worker.postMessage('more');
      yield batch;
    }
  } finally {
    await worker.terminate();
  }
}
