// npm run bench -- search-probe [--db PATH | --database-url URL] [--explain] 'q=bygg&sni=41' 'county=01&sort=-revenue' …
//
// Any searches, given as GET /companies query strings, against the store alone: the first
// page's size, five timings (ms, sorted) and, on PostgreSQL, the statements one search issues;
// --explain prints EXPLAIN (ANALYZE, BUFFERS) of each. For a shape that no class of
// bench/search.ts holds: found slow, then explained.
import { openStore } from '../src/store/open-store.js';
import { benchDatabaseUrl } from './lib/pg-url.js';
import { PgStore } from '../src/store/postgres/pg-store.js';
import { SEARCH_QUERY_SCHEMA, toSearchQuery } from '../src/core/search-params.js';
const DEFAULT_DB = process.env.BOLAG_BENCH_DB ?? '/tmp/bolag-bench/register.db';

export async function run(all: string[] = []): Promise<void> {
  const { url, rest } = benchDatabaseUrl(all);
  let db = DEFAULT_DB;
  let explain = false;
  const queries: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--db') db = rest[++i];
    else if (rest[i] === '--explain') explain = true;
    else queries.push(rest[i]);
  }
  const store = await openStore(url ? { databaseUrl: url } : { dbPath: db });
  let seen: { sql: string; params: unknown[] }[] = [];
  if (store instanceof PgStore) {
    const pool = store.db.pool as unknown as { query: (...a: unknown[]) => unknown };
    const query = pool.query.bind(pool);
    pool.query = (...a: unknown[]) => {
      if (typeof a[0] === 'string') seen.push({ sql: a[0], params: (a[1] as unknown[]) ?? [] });
      return query(...a);
    };
  }
  for (const p of queries) {
    const query = toSearchQuery(SEARCH_QUERY_SCHEMA.parse(Object.fromEntries(new URLSearchParams(p))));
    const times: number[] = [];
    let n = 0;
    for (let i = 0; i < 5; i++) {
      seen = [];
      const t = performance.now();
      const page = await store.companies.search(query, null);
      times.push(performance.now() - t);
      n = page.rows.length;
    }
    const ran = seen;
    times.sort((a, b) => a - b);
    console.log(p, n, times.map((x) => x.toFixed(0)).join(' '), `${ran.length} st`);
    if (explain && store instanceof PgStore) {
      for (const st of ran) {
        if (/^(BEGIN|COMMIT|ROLLBACK|SET)/i.test(st.sql.trim())) continue;
        const plan = await store.db.pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${st.sql}`, st.params);
        console.log(`    ${st.sql}\n    ${JSON.stringify(st.params)}`);
        for (const r of plan.rows) console.log(`      ${r['QUERY PLAN']}`);
      }
    }
  }
  await store.close();
}
