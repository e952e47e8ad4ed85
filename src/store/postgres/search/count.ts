// include_total. Exact from company_counts when the filters are one of the counted dimensions
// (county, municipality, category, legal form; with or without a status filter): a sum of a
// few small rows. Otherwise counted for real under a statement timeout of what is left of the
// call's budget; out of time, the same count over a sample of the table's pages, scaled up,
// marked as estimated (the planner's own guess, used before, has no statistics for an SNI prefix
// or a word: it said 2,443 for 68,230 and 1 for 136,050). count(*) over a large share of the
// register runs with parallel workers.
import type { SearchFilters } from '../../../core/search-params.js';
import type { CountResult } from '../../store.js';
import type { PgDb, Queryable } from '../database.js';
import { allConditions, buildConditions, type Conditions } from './filters.js';
import { numbered, rows } from './sql.js';

const COUNTED = ['county', 'municipality', 'category', 'legal_form'] as const;
/** A count this quick is not worth a transaction and a timeout: the estimate's own cost. */
const MIN_BUDGET_MS = 5;

export async function countCompanies(db: PgDb, filters: SearchFilters, budgetMs: number): Promise<CountResult> {
  const conds = buildConditions(filters);
  if (conds.empty) return { total: 0, estimated: false };
  const fromCounts = await fromCountsTable(db, conds);
  if (fromCounts !== null) return { total: fromCounts, estimated: false };
  const where = allConditions(conds, { box: true });
  const text = `SELECT count(*)::float8 AS n FROM companies c WHERE ${where.sql}`;
  if (budgetMs >= MIN_BUDGET_MS) {
    try {
      const n = await db.tx(async (client) => {
        const countMs = budgetMs > 2 * SAMPLE_TIMEOUT_MS ? budgetMs - SAMPLE_TIMEOUT_MS : budgetMs;
        await client.query(`SET LOCAL statement_timeout = ${Math.floor(Math.min(countMs, 2 ** 31 - 1))}`);
        await client.query('SET LOCAL max_parallel_workers_per_gather = 2');
        return (await client.query<{ n: number }>(numbered(text), where.params)).rows[0].n;
      });
      return { total: n, estimated: false };
    } catch (e) {
      if ((e as { code?: string }).code !== '57014') throw e; // query_canceled: out of time
    }
  }
  return { total: await estimate(db, where.sql, where.params), estimated: true };
}

async function fromCountsTable(db: Queryable, conds: Conditions): Promise<number | null> {
  const others = conds.list.filter((c) => c.name !== 'status');
  const status = conds.list.find((c) => c.name === 'status');
  if (others.length > 1) return null;
  const dim = others.length ? others[0].name : 'legal_form'; // every company has one legal form
  if (!(COUNTED as readonly string[]).includes(dim)) return null;
  // The conditions' values, bound as they are (c.county_code IN (…) → value IN (…)).
  const values = others.length ? others[0] : null;
  const where = [
    'dim = ?',
    ...(values ? [values.sql.replace(/^c\.\w+ IN/, 'value IN')] : []),
    ...(status ? [status.sql.replace(/^c\.status IN/, 'status IN')] : []),
  ].join(' AND ');
  const params = [dim, ...(values?.params ?? []), ...(status?.params ?? [])];
  const [r] = await rows<{ n: number }>(db, { sql: `SELECT coalesce(sum(n), 0)::float8 AS n FROM company_counts WHERE ${where}`, params });
  return r.n;
}

/** Rows the sample reads, about: a share of 1 % comes out within a tenth or so of itself. */
const SAMPLE_ROWS = 10_000;
/** The sample's own time, kept from the count's budget (an SNI prefix costs ~13 µs a row). */
const SAMPLE_TIMEOUT_MS = 200;

/**
 * The count over a sample of the table's pages (TABLESAMPLE SYSTEM, the same pages each time),
 * scaled to the table; the planner's guess when the table has no statistics yet or the sample
 * takes too long.
 */
async function estimate(db: PgDb, where: string, params: unknown[]): Promise<number> {
  const [{ n: tuples }] = (await db.query<{ n: number }>("SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'companies'::regclass")).rows;
  if (tuples > 0) {
    const percent = Math.min(100, (SAMPLE_ROWS / tuples) * 100);
    try {
      const n = await db.tx(async (client) => {
        await client.query(`SET LOCAL statement_timeout = ${SAMPLE_TIMEOUT_MS}`);
        const text = `SELECT count(*)::float8 AS n FROM companies c TABLESAMPLE SYSTEM (${percent.toFixed(6)}) REPEATABLE (1) WHERE ${where}`;
        return (await client.query<{ n: number }>(numbered(text), params)).rows[0].n;
      });
      return Math.round((n * 100) / percent);
    } catch (e) {
      if ((e as { code?: string }).code !== '57014') throw e;
    }
  }
  const r = await db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(`EXPLAIN (FORMAT JSON) ${numbered(`SELECT 1 FROM companies c WHERE ${where}`)}`, params);
  return Math.round(r.rows[0]['QUERY PLAN'][0].Plan['Plan Rows']);
}
