// The service's own tables on PostgreSQL (versions 100 and up; companies use 1–99).
// JSON columns are json, not jsonb, where the text must come back as written (key order of
// filters, replayed responses, event bodies); jsonb only where SQL looks inside.
// Timestamps the API shows are kept as the ISO text the code writes (as on SQLite), so records
// read back byte for byte; times only the database compares (job leases, run_at) are timestamptz.
import type { PgMigration } from './migrations.js';

export const SERVICE_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 100,
    name: 'accounts and keys, settings',
    sql: `
      CREATE TABLE accounts (
        id text PRIMARY KEY,
        name text NOT NULL UNIQUE,
        plan text NOT NULL,
        created_at text NOT NULL
      );
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts(id),
        key_hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        scopes jsonb NOT NULL,
        created_at text NOT NULL,
        revoked_at text
      );
      CREATE INDEX api_keys_account ON api_keys (account_id, created_at);
      CREATE TABLE settings (name text PRIMARY KEY, value text NOT NULL);
    `,
  },
  {
    version: 101,
    name: 'jobs with leases',
    sql: `
      CREATE TABLE jobs (
        id text PRIMARY KEY,
        kind text NOT NULL,
        payload json NOT NULL,
        key text UNIQUE,                      -- optional dedupe key
        state text NOT NULL,                  -- queued, done, failed
        attempts integer NOT NULL DEFAULT 0,
        run_at timestamptz NOT NULL,
        locked_until timestamptz,             -- a lapsed lease makes the job due again
        lease text,                           -- token of the current claim: only its holder settles
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX jobs_due ON jobs (kind, run_at) WHERE state = 'queued';
    `,
  },
  {
    version: 102,
    name: 'outbox',
    sql: `
      CREATE TABLE outbox (
        seq bigserial PRIMARY KEY,
        account_id text,
        event json NOT NULL,
        subject json,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE outbox_cursors (name text PRIMARY KEY, seq bigint NOT NULL);
      -- The fan-out reads the outbox after a cursor, so a row must never become visible after
      -- a row with a higher seq: a sequence alone does not promise that (two transactions take
      -- 5 and 6, and 6 commits first). Every writer of the outbox takes this transaction lock
      -- before its first row, so outbox writers commit one after another, in seq order.
      CREATE FUNCTION outbox_serialize() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(7310, hashtext(TG_TABLE_SCHEMA));
        RETURN NULL;
      END $$;
      CREATE TRIGGER outbox_serialize BEFORE INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_serialize();
    `,
  },
  {
    version: 103,
    name: 'exports, idempotency keys, export files',
    sql: `
      CREATE TABLE exports (
        id text PRIMARY KEY,
        account_id text NOT NULL,
        status text NOT NULL,
        format text NOT NULL,
        filters json NOT NULL,
        fields json,
        estimated_rows bigint NOT NULL,
        row_count bigint,
        files json NOT NULL DEFAULT '[]',
        created_at text NOT NULL,
        completed_at text,
        expires_at text,
        error json
      );
      CREATE INDEX exports_account ON exports (account_id, created_at DESC, id DESC);
      CREATE INDEX exports_expiry ON exports (expires_at) WHERE status = 'completed';
      CREATE TABLE idempotency_keys (
        account_id text NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        status_code integer,
        response json,
        created_at text NOT NULL,
        PRIMARY KEY (account_id, key)
      );
      -- Export files in chunks, so that replicas share nothing but the database. A part is
      -- written under its run's token and only the finished parts of the settled run are read.
      CREATE TABLE export_chunks (
        export_id text NOT NULL,
        part text NOT NULL,                   -- file name, e.g. part-001.csv
        run text NOT NULL,                    -- the run that wrote it
        seq integer NOT NULL,                 -- chunk number within the part
        start_byte bigint NOT NULL,           -- offset of the chunk's first byte in the part
        data bytea NOT NULL,
        PRIMARY KEY (export_id, part, run, seq)
      );
      ALTER TABLE export_chunks ALTER COLUMN data SET STORAGE EXTERNAL; -- out of line, uncompressed: a range reads its bytes without decompressing the chunk
      CREATE TABLE export_parts (
        export_id text NOT NULL,
        part text NOT NULL,
        run text NOT NULL,
        bytes bigint NOT NULL,
        PRIMARY KEY (export_id, part, run)
      );
    `,
  },
  {
    version: 104,
    name: 'webhooks, deliveries',
    sql: `
      CREATE TABLE webhooks (
        id text PRIMARY KEY,
        account_id text NOT NULL,
        url text NOT NULL,
        events jsonb NOT NULL,
        filters json NOT NULL,
        status text NOT NULL,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_expires_at text,
        consecutive_failures integer NOT NULL DEFAULT 0,
        failing_since text,
        created_at text NOT NULL
      );
      CREATE INDEX webhooks_account ON webhooks (account_id);
      CREATE TABLE deliveries (
        id text PRIMARY KEY,
        webhook_id text NOT NULL,
        event_id text NOT NULL,
        event_type text NOT NULL,
        attempt integer NOT NULL,
        status_code integer,
        duration_ms integer,
        error text,
        created_at text NOT NULL
      );
      CREATE INDEX deliveries_webhook ON deliveries (webhook_id, created_at DESC, id DESC);
    `,
  },
  {
    version: 105,
    name: 'rate limit windows',
    sql: `
      -- One row per key and window: processes take tokens from it in blocks (src/app/rate-limit.ts).
      CREATE TABLE rate_windows (
        key text NOT NULL,
        window_start bigint NOT NULL,         -- epoch ms
        used integer NOT NULL,
        PRIMARY KEY (key, window_start)
      );
    `,
  },
  {
    version: 106,
    name: 'job claimer',
    sql: `
      -- Which process holds a job's lease (host:pid), for operators asking "who runs this?".
      ALTER TABLE jobs ADD COLUMN locked_by text;
    `,
  },
  {
    version: 107,
    name: 'incarnations; indexes for the retention sweeper',
    sql: `
      -- One run of a server process: the leases it takes carry its id in jobs.locked_by, so a
      -- start on the same host hands back at once those of its dead processes (src/app/incarnation.ts).
      CREATE TABLE incarnations (
        id text PRIMARY KEY,
        host text NOT NULL,                   -- host name, boot id and pid namespace
        pid integer NOT NULL,
        started_at text NOT NULL
      );
      CREATE INDEX incarnations_host ON incarnations (host);
      -- locked_by now holds an incarnation id (it held host:pid before): one meaning.
      UPDATE jobs SET locked_by = NULL;
      COMMENT ON COLUMN jobs.locked_by IS 'the incarnation holding the current lease (incarnations.id)';
      CREATE INDEX jobs_locked_by ON jobs (locked_by) WHERE locked_by IS NOT NULL;
      CREATE INDEX jobs_finished ON jobs (run_at) WHERE state <> 'queued';
      CREATE INDEX deliveries_created ON deliveries (created_at);
      CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
      CREATE INDEX exports_expires ON exports (expires_at);
    `,
  },
  {
    version: 108,
    name: 'due jobs by webhook',
    sql: `
      -- A delivery claim past full webhooks reads each other webhook's due head (job-queue.ts,
      -- groupHeads), not the full webhooks' backlogs in front of them.
      CREATE INDEX jobs_group_due ON jobs (kind, (payload->>'webhook_id'), run_at) WHERE state = 'queued';
    `,
  },
  {
    version: 109,
    name: 'events of an all-or-nothing import, until its commit',
    sql: `
      -- An all-or-nothing import's events wait here and move to the outbox just before it
      -- commits (import-writes.ts), so that the outbox's lock is not held while it runs. Each
      -- import moves out the rows it wrote, in the transaction that wrote them: the table is
      -- empty at rest, so it is unlogged. A table, not a temporary one: that needs the
      -- TEMPORARY privilege, which hardened databases revoke.
      CREATE UNLOGGED TABLE import_events (
        n bigserial,
        account_id text,
        event json NOT NULL,
        subject json,
        created_at timestamptz NOT NULL
      );
    `,
  },
];
