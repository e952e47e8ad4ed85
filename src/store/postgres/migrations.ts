// Versioned schema for PostgreSQL, applied at every start. Several processes may start at once
// (replicas behind a load balancer): the whole run holds one advisory lock, so one process
// migrates and the others wait, then find nothing left to do. The lock is global to the
// database, not per schema, because the extensions it creates are shared by every schema.
// Company tables use versions 1–99 (company-migrations.ts), the service's own 100 and up.
import type pg from 'pg';
import { NotARegisterError } from '../not-a-register.js';
import { COMPANY_MIGRATIONS } from './company-migrations.js';
import { ident, type PgDb } from './database.js';
import { SERVICE_MIGRATIONS } from './service-migrations.js';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

/** Key of the advisory lock held while migrating (any bigint; this one spells "bolag mig"). */
export const MIGRATION_LOCK_KEY = 0x626f6c6167_6d;

export function allMigrations(): PgMigration[] {
  const all = [...COMPANY_MIGRATIONS, ...SERVICE_MIGRATIONS].sort((a, b) => a.version - b.version);
  for (let i = 1; i < all.length; i++) {
    if (all[i].version === all[i - 1].version) throw new Error(`Two PostgreSQL migrations have version ${all[i].version}.`);
  }
  return all;
}

/**
 * A schema with tables of its own and none of ours is some other program's: not migrated into
 * a register (`--database-url …/appdb` without `?schema=` lands in public). Tables an extension
 * made (PostGIS's spatial_ref_sys in public) are nobody's data.
 */
async function refuseForeignSchema(client: pg.PoolClient, schema: string): Promise<void> {
  const tables = (
    await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
        ORDER BY 1`,
      [schema],
    )
  ).rows.map((r) => r.name);
  if (tables.length === 0 || tables.includes('schema_migrations')) return;
  const shown = tables.slice(0, 3).join(', ') + (tables.length > 3 ? ', …' : '');
  throw new NotARegisterError(
    `Schema ${schema} holds tables of something else (${shown}), not a bolag register; nothing in it was changed. Give the register a schema of its own: ?schema=bolag in --database-url.`,
  );
}

export async function migrate(db: PgDb): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await refuseForeignSchema(client, db.schema);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(db.schema)}`);
      // Set again now that the schema exists, so unqualified names land in it.
      await client.query(`SET search_path TO ${ident(db.schema)}`);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const m of allMigrations()) {
        if (applied.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
          await client.query('COMMIT');
        } catch (e) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new Error(`PostgreSQL migration ${m.version} (${m.name}) failed: ${(e as Error).message}`);
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    // The session's search_path was changed above: this connection is not handed out again.
    client.release(true);
  }
}
