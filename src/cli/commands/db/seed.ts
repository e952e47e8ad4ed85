import { seedingCutShort, seedRegister } from '../../../app/seed-register.js';
import type { DbSeedOptions } from './options.js';
import { openDbStore } from './open.js';
import { SEED_WAIT, seedProgress } from './seed-progress.js';
import { formatNumber } from '../../output/swedish.js';
import { UsageError } from '../../errors/index.js';

export async function dbSeedRun(opts: DbSeedOptions): Promise<void> {
  const { store, path } = await openDbStore(opts);
  // Every company goes (ids are reused for others, no event says so): not by a slip of the command.
  const held = await store.companies.lastRow();
  if (held > 0 && !opts.replace && !(await seedingCutShort(store))) {
    throw new UsageError(`${path} already holds a register; bolag db seed would replace every company in it, with no events.`, {
      flag: '--replace',
      hint: 'give --replace to do so',
    });
  }
  const progress = seedProgress(opts.factory.io, 'Seeding the register');
  const started = Date.now();
  // Under the lock a first start takes to create the register: a `serve` starting meanwhile
  // waits for this seed, and does not take it for one cut short and seed again beside it.
  const count = await store.exclusively('bootstrap', () => seedRegister(store, { count: opts.count, seed: opts.seed, onProgress: progress.update }), () =>
    opts.factory.notice(SEED_WAIT),
  );
  progress.done();
  opts.factory.notice(`Seeded ${formatNumber(count)} companies into ${path} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
