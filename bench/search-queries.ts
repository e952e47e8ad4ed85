// npm run bench -- search-queries [--db PATH | --database-url URL] [--only a,b] [--match TEXT] [--runs N] [--explain]
//
// The classes of bench/search.ts query by query, in-process against the store alone: each
// query's p50, p99 and slowest time over --runs runs (default 30), and on PostgreSQL the
// statements one search issues. A class's p99 is made by its slowest queries and by its round
// trips; this says which ones, so that a plan is fixed where it is slow. --explain (PostgreSQL)
// prints EXPLAIN (ANALYZE, BUFFERS) of every statement each query runs; --match keeps the
// queries whose path holds the text.
import { openStore } from '../src/store/open-store.js';
import { PgStore } from '../src/store/postgres/pg-store.js';
import { benchDatabaseUrl } from './lib/pg-url.js';
import { deepPositions, searchClasses } from './search.js';

const DEFAULT_DB = process.env.BOLAG_BENCH_DB ?? '/tmp/bolag-bench/register.db';

export async function run(all: string[] = []): Promise<void> {
  const { url, rest } = benchDatabaseUrl(all);
  let db = DEFAULT_DB;
  let only: string[] | null = null;
  let runs = 30;
  let match: string | null = null;
  let explain = false;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--db') db = rest[++i];
    else if (rest[i] === '--only') only = rest[++i].split(',');
    else if (rest[i] === '--runs') runs = Number(rest[++i]);
    else if (rest[i] === '--match') match = rest[++i];
    else if (rest[i] === '--explain') explain = true;
    else throw new Error(`unknown argument ${rest[i]}`);
  }
  const store = await openStore(url ? { databaseUrl: url } : { dbPath: db });
  // Statements per search: the pool's queries counted while one runs.
  let statements = 0;
  let seen: { sql: string; params: unknown[] }[] = [];
  if (store instanceof PgStore) {
    const pool = store.db.pool as unknown as { query: (...a: unknown[]) => unknown };
    const query = pool.query.bind(pool);
    pool.query = (...a: unknown[]) => {
      statements++;
      if (typeof a[0] === 'string') seen.push({ sql: a[0], params: (a[1] as unknown[]) ?? [] });
      return query(...a);
    };
  }
  try {
    const deep = await deepPositions(store);
    const classes = (await searchClasses(store, deep)).filter((c) => !only || only.includes(c.name));
    for (const c of classes) {
      console.log(`${c.name}:`);
      for (let i = 0; i < c.floor.length; i++) {
        const path = decodeURIComponent(c.paths[i]).replace(/&cursor=.*/, '&cursor=…');
        if (match && !path.includes(match)) continue;
        await c.floor[i](); // warm
        statements = 0;
        seen = [];
        await c.floor[i]();
        const issued = statements;
        const ran = seen;
        seen = [];
        const times: number[] = [];
        for (let r = 0; r < runs; r++) {
          const t0 = performance.now();
          await c.floor[i]();
          times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
        console.log(`  p50 ${at(0.5).padStart(7)} p99 ${at(0.99).padStart(7)} max ${times[times.length - 1].toFixed(2).padStart(7)} ms  ${String(issued).padStart(2)} st  ${path}`);
        if (explain && store instanceof PgStore) {
          for (const st of ran) {
            const plan = await store.db.pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${st.sql}`, st.params);
            console.log(`    ${st.sql}\n    ${JSON.stringify(st.params)}`);
            for (const r of plan.rows) console.log(`      ${r['QUERY PLAN']}`);
          }
        }
      }
    }
  } finally {
    await store.close();
  }
}
