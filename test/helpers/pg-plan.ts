// EXPLAIN (FORMAT JSON) plans of PostgreSQL, for the plan-pinning tests.
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  /** The conditions tested on the index's own entries. */
  'Index Cond'?: string;
  'Parent Relationship'?: string;
  /** EXPLAIN ANALYZE: how often the node ran (0: never). */
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** A plan's nodes, depth first. */
export function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/**
 * A walk's sentinel (src/store/postgres/search/walk.ts): one row read by its key, at the entry
 * the walk's budget ends on, found from the walked index alone; run only when the walk falls
 * short of its page.
 */
export const isSentinel = (n: PlanNode) => n['Index Name'] === 'companies_pkey' && (n.Plans ?? []).some((p) => p['Parent Relationship'] === 'InitPlan');

/** A plan's nodes, depth first, without walks' sentinels (they read the walked index again). */
export function drivingNodes(plan: PlanNode): PlanNode[] {
  return isSentinel(plan) ? [] : [plan, ...(plan.Plans ?? []).flatMap(drivingNodes)];
}

interface Explainable {
  db: { query: (sql: string, params?: unknown[]) => Promise<unknown>; pool: { query: (sql: string, params?: unknown[]) => Promise<{ rows: any[] }> } };
}

/** Records every statement the store runs through db.query; take() hands them over and starts afresh. */
export function recordStatements(store: Explainable): { take(): { sql: string; params: unknown[] }[] } {
  let seen: { sql: string; params: unknown[] }[] = [];
  const run = store.db.query.bind(store.db);
  store.db.query = (async (sql: string, params?: unknown[]) => {
    seen.push({ sql, params: params ?? [] });
    return run(sql, params);
  }) as typeof store.db.query;
  return {
    take() {
      const out = seen;
      seen = [];
      return out;
    },
  };
}

/** The plan nodes EXPLAIN shows for a statement (on the pool: not recorded), walks' sentinels left out. */
export async function planNodes(store: Explainable, s: { sql: string; params: unknown[] }): Promise<PlanNode[]> {
  return drivingNodes(await planTree(store, s));
}

export async function planTree(store: Explainable, s: { sql: string; params: unknown[] }, analyze = false): Promise<PlanNode> {
  const r = await store.db.pool.query(`EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${s.sql}`, s.params);
  return (r.rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
}

export const indexesOf = (plan: { nodes: PlanNode[] }) => plan.nodes.map((n) => n['Index Name']).filter(Boolean);
export const scansCompanies = (plan: { nodes: PlanNode[] }) => plan.nodes.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'companies');
