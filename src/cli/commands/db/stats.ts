import type { DbOptions } from './options.js';
import { openDbStore } from './open.js';

export async function dbStatsRun(opts: DbOptions): Promise<void> {
  const { store, path } = await openDbStore(opts, { existing: true });
  const stats: Record<string, string | number> = { database: path, ...(await store.companies.stats()) };
  const io = opts.factory.io;
  if (io.stdoutIsTTY) {
    for (const [k, v] of Object.entries(stats)) io.stdout.write(`${k.padEnd(20)} ${typeof v === 'number' ? v.toLocaleString('sv-SE') : String(v)}\n`);
  } else {
    io.stdout.write(`${JSON.stringify(stats)}\n`);
  }
}
