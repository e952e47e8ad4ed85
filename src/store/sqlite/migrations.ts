// Versioned schema. A migration is never edited once released; add the next one instead.
// Indexes on `companies` live in COMPANY_INDEXES so that the bulk seeder can drop them,
// load, and build them once at the end (far faster than maintaining them row by row).
import { COUNTS_FROM_TABLE_SQL } from './stats/count-keys.js';

/**
 * The columns the name order's index carries beside (status, name_sort): a walk in name order
 * tests the common filters on the index entry itself (search/covered.ts) and reads a row only
 * when they pass, so a filter that keeps 1 row in 200 costs 200 index entries, not 200 rows.
 */
export const NAME_INDEX_COVERS = [
  'county_code', 'municipality_code', 'category_slug', 'legal_form', 'postal_code', 'employees_rank', 'lat', 'lng',
  'has_financials', 'f_skatt', 'vat_registered', 'employer_registered', 'verified', 'advertising_blocked',
] as const;

/** companies_employees_revenue holds the employee classes from this rank up (search/walk-source.ts). */
export const CLASS_REVENUE_FROM_RANK = 1;

/**
 * Indexes a migration replaced (14). A process of an earlier release started on the file after
 * it (a rollback) builds them again; dropped at every start, so that they are not maintained
 * row by row for nothing, nor kept through a first load that drops only COMPANY_INDEXES.
 */
export const RETIRED_COMPANY_INDEXES: readonly string[] = [
  'companies_county', 'companies_municipality', 'companies_name',
  // Nothing read it: a company is read by the rowid its id names (company-repository.ts), and
  // the id, made from the rowid, is unique with it. One B-tree less for every first load to build.
  'companies_id',
];

// The orders of the financial figures index only the companies that have them (about half of
// the register): a sort walks its nulls last, in rowid order, from the table itself
// (search/sort-keys.ts), and every range filter implies IS NOT NULL. Registers made before
// keep full indexes, which the same queries use alike.
export const COMPANY_INDEXES: readonly string[] = [
  'CREATE UNIQUE INDEX IF NOT EXISTS companies_org_nr ON companies (org_nr)',
  `CREATE INDEX IF NOT EXISTS companies_status_name ON companies (status, name_sort, rowid, ${NAME_INDEX_COVERS.join(', ')})`,
  // County and municipality in one (search/place-index.ts): one build instead of two.
  'CREATE INDEX IF NOT EXISTS companies_place ON companies (county_code, municipality_code, status)',
  'CREATE INDEX IF NOT EXISTS companies_postal ON companies (postal_code)',
  'CREATE INDEX IF NOT EXISTS companies_city ON companies (city_folded)',
  'CREATE INDEX IF NOT EXISTS companies_category ON companies (category_slug, status)',
  // The flags ride on the legal form's entries (after the rowid, so an index probe is still one
  // seek): legal_form=bostadsrattsforening&f_skatt=true, which no row matches, is settled on
  // 24,000 entries instead of 24,000 rows (29 → 3.5 ms), for about half a second of seeding.
  'CREATE INDEX IF NOT EXISTS companies_legal_form ON companies (legal_form, status, rowid, has_financials, f_skatt, vat_registered, employer_registered, verified)',
  'CREATE INDEX IF NOT EXISTS companies_revenue ON companies (revenue, rowid) WHERE revenue IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS companies_profit ON companies (profit, rowid) WHERE profit IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS companies_registration_date ON companies (registration_date, rowid)',
  'CREATE INDEX IF NOT EXISTS companies_equity_ratio ON companies (equity_ratio, rowid) WHERE equity_ratio IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS companies_revenue_growth ON companies (revenue_growth, rowid) WHERE revenue_growth IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS companies_employees ON companies (employees_rank, rowid)',
  // Each employee class in revenue order (search/walk-source.ts), from 1-4 up: class 0 is half
  // the register and lies with the grain of the revenue order. The status is tested on the entry.
  `CREATE INDEX IF NOT EXISTS companies_employees_revenue ON companies (employees_rank, revenue, rowid, status) WHERE employees_rank >= ${CLASS_REVENUE_FROM_RANK} AND revenue IS NOT NULL`,
  'CREATE INDEX IF NOT EXISTS company_sni_company ON company_sni (company_rowid)',
];

/**
 * Covering: a weekly open-data import settles its unchanged lines from this index alone. Built by
 * the first import that reads fingerprints (ensureFingerprintsIndex), not by the seeder: a
 * generated register has none, and it cost a second of every newcomer's first start.
 */
export const FINGERPRINTS_INDEX = 'CREATE INDEX IF NOT EXISTS companies_fingerprints ON companies (org_nr, bolagsverket_hash, scb_hash)';

export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'companies',
    sql: `
      CREATE TABLE companies (
        rowid INTEGER PRIMARY KEY,
        id TEXT NOT NULL,                     -- unique: companies_id in COMPANY_INDEXES
        org_nr TEXT NOT NULL,                 -- 10 digits, no hyphen; unique: companies_org_nr
        name TEXT NOT NULL,
        name_sort TEXT NOT NULL,              -- folded, for sorting by name
        legal_form TEXT NOT NULL,
        status TEXT NOT NULL,
        street TEXT NOT NULL,
        postal_code TEXT NOT NULL,            -- 5 digits
        city TEXT NOT NULL,
        city_folded TEXT NOT NULL,
        municipality_code TEXT NOT NULL,
        county_code TEXT NOT NULL,
        category_slug TEXT NOT NULL,
        sni_codes TEXT NOT NULL,              -- comma-separated, primary first
        website TEXT,
        website_status TEXT NOT NULL,
        employees_rank INTEGER NOT NULL,      -- index into EMPLOYEES_CLASSES
        trend TEXT NOT NULL,
        revenue INTEGER,
        profit INTEGER,
        equity_ratio REAL,
        revenue_growth REAL,
        has_financials INTEGER NOT NULL,
        f_skatt INTEGER NOT NULL,
        vat_registered INTEGER NOT NULL,
        employer_registered INTEGER NOT NULL,
        verified INTEGER NOT NULL,
        advertising_blocked INTEGER NOT NULL,
        registration_date TEXT NOT NULL,
        lat REAL,
        lng REAL,
        latest_financials TEXT,               -- JSON, read only for expand
        updated_at TEXT NOT NULL
      );
      CREATE TABLE company_sni (
        code TEXT NOT NULL,
        company_rowid INTEGER NOT NULL,
        PRIMARY KEY (code, company_rowid)
      ) WITHOUT ROWID;
      -- Contentless: the text lives in companies; the index only maps tokens to rowids.
      CREATE VIRTUAL TABLE companies_fts USING fts5(
        name, industry, org_nr,
        content='', contentless_delete=1,
        tokenize="unicode61 remove_diacritics 2"
      );
      CREATE VIRTUAL TABLE companies_geo USING rtree(rowid, min_lat, max_lat, min_lng, max_lng);
    `,
  },
  {
    version: 2,
    name: 'accounts and keys',
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        plan TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        key_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        scopes TEXT NOT NULL,                 -- JSON array
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
    `,
  },
  {
    version: 3,
    name: 'jobs, outbox',
    sql: `
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,                -- JSON
        key TEXT UNIQUE,                      -- optional dedupe key
        state TEXT NOT NULL,                  -- queued, done, failed
        attempts INTEGER NOT NULL DEFAULT 0,
        run_at INTEGER NOT NULL,              -- epoch ms
        locked_until INTEGER,                 -- epoch ms; a lapsed lease makes the job due again
        last_error TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX jobs_due ON jobs (state, run_at);
      CREATE TABLE outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id TEXT,
        event TEXT NOT NULL,                  -- JSON envelope
        subject TEXT,                         -- JSON, for webhook filters
        created_at TEXT NOT NULL
      );
      CREATE TABLE outbox_cursors (
        name TEXT PRIMARY KEY,
        seq INTEGER NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'exports, idempotency',
    sql: `
      CREATE TABLE exports (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        status TEXT NOT NULL,
        format TEXT NOT NULL,
        filters TEXT NOT NULL,
        fields TEXT,
        estimated_rows INTEGER NOT NULL,
        row_count INTEGER,
        files TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        completed_at TEXT,
        expires_at TEXT,
        error TEXT
      );
      CREATE INDEX exports_account ON exports (account_id, id);
      CREATE TABLE idempotency_keys (
        account_id TEXT NOT NULL,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        status_code INTEGER,
        response TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (account_id, key)
      );
    `,
  },
  {
    version: 5,
    name: 'webhooks, deliveries',
    sql: `
      CREATE TABLE webhooks (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        filters TEXT NOT NULL,
        status TEXT NOT NULL,
        secret TEXT NOT NULL,
        previous_secret TEXT,
        previous_secret_expires_at TEXT,
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        failing_since TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX webhooks_account ON webhooks (account_id);
      CREATE TABLE deliveries (
        id TEXT PRIMARY KEY,
        webhook_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        event_type TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        status_code INTEGER,
        duration_ms INTEGER,
        error TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX deliveries_webhook ON deliveries (webhook_id, created_at);
    `,
  },
  {
    version: 6,
    name: 'settings',
    sql: `CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  },
  {
    // Search matches industry words through the SNI and category names themselves
    // (search/text-query.ts), so the index holds names and org nrs only, with prefix indexes
    // for one and two characters: "Norden AB" looks up "ab*" directly instead of merging the
    // lists of every word that begins with "ab" (20 ms → 0.1 ms). Three characters would save
    // 1 to 2 ms more on a three-letter last word, for 4.5 s of seeding and 21 MB.
    // The industry column stays, empty.
    version: 7,
    name: 'full-text index of names and org nrs, with prefix indexes',
    sql: `
      DROP TABLE companies_fts;
      CREATE VIRTUAL TABLE companies_fts USING fts5(
        name, industry, org_nr,
        content='', contentless_delete=1, prefix='1 2',
        tokenize="unicode61 remove_diacritics 2"
      );
      INSERT INTO companies_fts (rowid, name, industry, org_nr)
        SELECT rowid, name, '', org_nr || ' ' || substr(org_nr, 1, 6) || '-' || substr(org_nr, 7) FROM companies;
    `,
  },
  {
    // Leases with a token: only the worker holding the current claim of a job settles it.
    // Rate windows: per-key token counts shared by every process on the file.
    version: 8,
    name: 'job lease tokens, rate windows',
    sql: `
      ALTER TABLE jobs ADD COLUMN lease TEXT;
      CREATE TABLE rate_windows (
        key TEXT NOT NULL,
        window_start INTEGER NOT NULL,        -- epoch ms
        used INTEGER NOT NULL,
        PRIMARY KEY (key, window_start)
      ) WITHOUT ROWID;
    `,
  },
  {
    // Companies per county, municipality, category, legal form, postal prefix, SNI code and grid
    // cell, by status (stats/count-keys.ts): the planner's estimates and include_total's exact
    // counts, read instead of counted. And the name order's index widened to carry the common
    // filters' columns (NAME_INDEX_COVERS; rebuilt by ensureCompanyIndexes after this).
    version: 9,
    name: 'company counts; name index carries the common filters',
    sql: `
      CREATE TABLE company_counts (
        dim TEXT NOT NULL,
        value TEXT NOT NULL,
        status TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (dim, value, status)
      ) WITHOUT ROWID;
      ${COUNTS_FROM_TABLE_SQL};
      DROP INDEX IF EXISTS companies_status_name;
    `,
  },
  {
    version: 10,
    name: 'indexes for the retention sweeper',
    sql: `
      CREATE INDEX IF NOT EXISTS deliveries_created ON deliveries (created_at);
      CREATE INDEX IF NOT EXISTS exports_expires ON exports (expires_at);
      CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_at);
    `,
  },
  {
    version: 11,
    name: 'incarnations: who holds a lease, so a restart can take over its own dead work',
    sql: `
      ALTER TABLE jobs ADD COLUMN locked_by TEXT;
      CREATE INDEX jobs_locked_by ON jobs (locked_by);
      CREATE TABLE incarnations (
        id TEXT PRIMARY KEY,
        host TEXT NOT NULL,                   -- host name, boot id and pid namespace
        pid INTEGER NOT NULL,
        started_at TEXT NOT NULL
      );
      CREATE INDEX incarnations_host ON incarnations (host);
    `,
  },
  {
    // The open-data imports (Bolagsverket, SCB): the business description, searchable through q
    // in the full-text index's industry column (empty until now, so nothing to re-index), which
    // sources list the organisation (bits: 1 Bolagsverket, 2 SCB), each source's own view of its
    // standing, from which `status` is derived (src/import/open-data/derive-status.ts), and a
    // fingerprint of its last line in each file (unchanged lines are skipped). Numbered 12: 10 and
    // 11 are issue 12's (merged separately).
    version: 12,
    name: 'open-data sources: business description, source bits, standings and line fingerprints',
    sql: `
      ALTER TABLE companies ADD COLUMN description TEXT NOT NULL DEFAULT '';
      ALTER TABLE companies ADD COLUMN sources INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE companies ADD COLUMN bolagsverket_standing TEXT;
      ALTER TABLE companies ADD COLUMN scb_activity TEXT;
      ALTER TABLE companies ADD COLUMN bolagsverket_hash INTEGER;
      ALTER TABLE companies ADD COLUMN scb_hash INTEGER;
    `,
  },
  {
    // companies_legal_form carries the flags now (COMPANY_INDEXES): dropped here, built anew by
    // ensureCompanyIndexes right after the migrations (about 1.5 s on 1.2 million companies).
    version: 13,
    name: 'the legal form index with the flags',
    sql: 'DROP INDEX IF EXISTS companies_legal_form;',
  },
  {
    // companies_place (COMPANY_INDEXES) replaces the county's and the municipality's indexes,
    // built by ensureCompanyIndexes right after the migrations (as is any index new there, such
    // as companies_employees_revenue). Name order walks companies_status_name, several statuses
    // merged (search/status-merge.ts): companies_name goes.
    version: 14,
    name: 'one index for county and municipality; no name index without the status',
    sql: 'DROP INDEX IF EXISTS companies_county; DROP INDEX IF EXISTS companies_municipality; DROP INDEX IF EXISTS companies_name;',
  },
  {
    // An export claim ranks every due export job by its account, and asks which accounts have
    // one leased (src/exports/worker.ts): export jobs found by kind, not by walking the
    // deliveries due before them.
    version: 15,
    name: 'fair export claims',
    sql: 'CREATE INDEX IF NOT EXISTS jobs_kind_due ON jobs (kind, state, run_at);',
  },
  {
    // A delivery claim past full webhooks reads each other webhook's due head (job-queue.ts,
    // groupHeads), not the full webhooks' backlogs in front of them.
    version: 16,
    name: 'due jobs by webhook',
    sql: "CREATE INDEX IF NOT EXISTS jobs_group_due ON jobs (kind, json_extract(payload, '$.webhook_id'), run_at) WHERE state = 'queued';",
  },
];
