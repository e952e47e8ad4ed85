// The PostgreSQL connection pool of one store. Every connection starts with its search_path
// set to the store's schema alone, so that the same SQL runs in any schema (tests give each run
// its own). Not public after it: while the schema is missing (dropped, being restored) every
// unqualified name fell through to public's tables, another store's if one is there: its keys
// let in, its register served, exports written into it. Our SQL uses nothing of the contrib
// extensions kept in public.
import pg from 'pg';
import { isStoreUnavailable } from '../unavailable.js';
import { maskInText, splitSchema } from './url.js';

/** Anything that runs a query: the pool, or the client of a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

// bigint (count(*), bigserial) as a JS number: our counts and sequence numbers stay far below 2^53.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface PgDbOptions {
  /** Connections in this process's pool (default 10; see docs/operations.md for sizing). */
  max?: number;
  /** Overrides the URL's `schema` parameter. */
  schema?: string;
  /** A statement that waits longer than this for a lock fails (lock_timeout); default none. */
  lockTimeoutMs?: number;
}

export class PgDb implements Queryable {
  readonly pool: pg.Pool;
  readonly schema: string;
  /** The URL as given (with its password): for other threads or processes to open the same store. */
  readonly url: string;

  constructor(url: string, opts: PgDbOptions = {}) {
    const { connectionString, schema } = splitSchema(url);
    this.url = url;
    this.schema = opts.schema ?? schema;
    this.pool = new pg.Pool({
      connectionString,
      max: opts.max ?? Number(process.env.BOLAG_PG_POOL_MAX ?? 10),
      // Searches are short statements: no JIT compilation (tens of ms) and no parallel workers
      // (a few ms to start) for them; a long count asks for workers itself (search/count.ts).
      options: `-c search_path=${this.schema} -c jit=off -c max_parallel_workers_per_gather=0${
        opts.lockTimeoutMs === undefined ? '' : ` -c lock_timeout=${Math.round(opts.lockTimeoutMs)}`
      }`,
      types,
      // A request waits at most this long for a connection, then gets 503 (src/store/unavailable.ts):
      // while the database is down, answers come quickly instead of piling up.
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
    });
    // An idle client that loses its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    // Nor one that is checked out between two queries (a transaction, a COPY): node-postgres then
    // emits 'error' on the client itself, and the next query on it fails, which its caller handles.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(sql, params as unknown[]);
    } catch (e) {
      throw this.masked(e);
    }
  }

  /** Runs `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  async tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw this.masked(e);
    }
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      // A connection that broke goes, not back to the pool for the next caller.
      broken = isStoreUnavailable(e);
      throw this.masked(e);
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Connection errors can quote the URL; what leaves here never carries the password. */
  private masked(e: unknown): unknown {
    if (e instanceof Error) e.message = maskInText(e.message, this.url);
    return e;
  }
}

/** A quoted identifier (schema names come from configuration, never from requests). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
