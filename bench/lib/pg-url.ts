// `--database-url URL` (or DATABASE_URL) for the benchmarks that run on PostgreSQL beside
// SQLite. The register goes to the URL's `schema` parameter, default bench_pg (kept between
// runs, like SQLite's /tmp/bolag-bench/register.db).
export const BENCH_SCHEMA = 'bench_pg';

export function benchDatabaseUrl(args: string[]): { url: string | null; rest: string[] } {
  const rest: string[] = [];
  let url: string | null = process.env.DATABASE_URL || null;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--database-url') url = args[++i];
    else rest.push(args[i]);
  }
  if (!url) return { url: null, rest };
  const u = new URL(url);
  if (!u.searchParams.has('schema')) u.searchParams.set('schema', BENCH_SCHEMA);
  return { url: u.toString(), rest };
}
