import { seedRegister } from '../../../app/seed-register.js';
import type { DbSeedOptions } from './options.js';
import { openDbStore } from './open.js';
import { seedProgress } from './seed-progress.js';
import { formatNumber } from '../../output/swedish.js';

export async function dbSeedRun(opts: DbSeedOptions): Promise<void> {
  const { store, path } = await openDbStore(opts);
  const progress = seedProgress(opts.factory.io, 'Seeding the register');
  const started = Date.now();
  const count = await seedRegister(store, { count: opts.count, seed: opts.seed, onProgress: progress.update });
  progress.done();
  opts.factory.notice(`Seeded ${formatNumber(count)} companies into ${path} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
