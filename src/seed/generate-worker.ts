// Runs the generator on a second core while the main thread writes: the worker sends
// batches of companies and waits for credit, so at most a few batches are in flight.
import { parentPort, workerData } from 'node:worker_threads';
import { CompanyGenerator } from './generate-company.js';

const { seed, count, batchSize } = workerData as { seed: string; count: number; batchSize: number };
const generator = new CompanyGenerator(seed);
let made = 0;
let credit = 3;

function produce(): void {
  while (credit > 0 && made < count) {
    const n = Math.min(batchSize, count - made);
    const batch = new Array(n);
    for (let i = 0; i < n; i++) batch[i] = generator.next();
    made += n;
    credit--;
    parentPort!.postMessage(batch);
  }
  if (made >= count) parentPort!.postMessage(null);
}

parentPort!.on('message', () => {
  credit++;
  produce();
});
produce();
