// The register's tables in PostgreSQL (versions 1–99; the service's tables follow in
// migrations.ts). A migration is never edited once released; add the next one instead.
// Indexes on `companies` are in COMPANY_INDEXES, not in a migration, so that the bulk loader
// can drop them, COPY the rows in, and build each once at the end.
//
// Columns mirror the SQLite store's (src/store/sqlite/migrations.ts), so that one row mapper
// (rowToCompany) serves both. Text that is sorted or compared as a range is COLLATE "C": byte
// order, as SQLite compares, so that both stores order names alike and cursors carry over.
import type pg from 'pg';

/**
 * Legal forms that half or a third of all companies have: a walk of all revenues finds theirs
 * at once, so the index of revenue order within a legal form leaves them out (migration 4).
 */
export const BROAD_LEGAL_FORMS: readonly string[] = ['aktiebolag', 'enskild_näringsidkare'];
/** Employee classes from this rank on (5-9 and up, a fifth of all companies) are indexed in revenue order. */
export const NARROW_EMPLOYEES_RANK = 2;

// Migration 4's indexes as COMPANY_INDEXES builds them (the migration spells them out: it is never edited).
// Packed full: built after the load and changed little by imports, and the register's 1.5 GB
// (bench/seed.ts) had about 30 MB left for them.
const PACKED = 'WITH (fillfactor = 100)';
const LEGAL_FORM_REVENUE = `(legal_form, status, revenue, rowid, has_financials, f_skatt, vat_registered, employer_registered, verified) ${PACKED} WHERE legal_form NOT IN (${BROAD_LEGAL_FORMS.map((f) => `'${f}'`).join(', ')})`;
const MUNICIPALITY_COUNTY = `(municipality_code, status, name_sort, rowid, county_code) ${PACKED}`;
const EMPLOYEES_REVENUE = `(employees_rank, status, revenue, rowid) ${PACKED} WHERE employees_rank >= ${NARROW_EMPLOYEES_RANK}`;
const VERIFIED_NAME = `(status, name_sort, rowid) ${PACKED} WHERE verified = 1`;
// The unique key, and covering: q's org nr ranges read their rowids (search/text-sql.ts
// nameRowids) and a weekly import its fingerprints (read-listed.ts) from the index alone (migration 6).
const ORG_NR_KEY = '(org_nr) INCLUDE (rowid, bolagsverket_hash, scb_hash)';
/** A figure's order: the companies that have the figure (migration 5). */
const FIGURE_ORDER = (column: string) => `(${column}, rowid) WHERE ${column} IS NOT NULL`;

export const COMPANY_MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'companies',
    sql: `
      CREATE TABLE companies (
        rowid integer PRIMARY KEY,            -- the number in the public id (c_ + base 36)
        id text NOT NULL,                     -- unique: companies_id
        org_nr text COLLATE "C" NOT NULL,     -- 10 digits, no hyphen; unique: companies_org_nr
        name text NOT NULL,
        name_sort text COLLATE "C" NOT NULL,  -- folded (src/core/text.ts): sorting and tier 1
        words tsvector NOT NULL,              -- the folded name's words, made in JS
        legal_form text NOT NULL,
        status text NOT NULL,
        street text NOT NULL,
        postal_code text COLLATE "C" NOT NULL,
        city text NOT NULL,
        city_folded text NOT NULL,
        municipality_code text NOT NULL,
        county_code text NOT NULL,
        category_slug text NOT NULL,
        sni_codes text NOT NULL,              -- comma-separated, primary first (as returned)
        sni text[] NOT NULL,                  -- the same codes, for the GIN index
        website text,
        website_status text NOT NULL,
        employees_rank smallint NOT NULL,     -- index into EMPLOYEES_CLASSES
        trend text NOT NULL,
        revenue bigint,
        profit bigint,
        equity_ratio double precision,
        revenue_growth double precision,
        has_financials smallint NOT NULL,
        f_skatt smallint NOT NULL,
        vat_registered smallint NOT NULL,
        employer_registered smallint NOT NULL,
        verified smallint NOT NULL,
        advertising_blocked smallint NOT NULL,
        registration_date text COLLATE "C" NOT NULL,
        lat double precision,
        lng double precision,
        latest_financials text,               -- JSON, read only for expand
        updated_at text NOT NULL
      );
      -- Companies per value of the filters that include_total can answer from here exactly, and
      -- the SNI codes in use (the sni filter expands a prefix to them). Kept by bulk load and import.
      CREATE TABLE company_counts (
        dim text NOT NULL,                    -- county, municipality, category, legal_form, sni
        value text COLLATE "C" NOT NULL,
        status text NOT NULL,
        n integer NOT NULL,
        PRIMARY KEY (dim, value, status)
      );
      -- The great-circle distance of src/store/sqlite/search/geo-math.ts, term for term (inlined).
      CREATE FUNCTION bolag_distance_km(lat1 double precision, lng1 double precision, lat2 double precision, lng2 double precision)
      RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT 2 * 6371.0088 * asin(least(1, sqrt(
          sin((lat2 - lat1) * (pi() / 180) / 2) * sin((lat2 - lat1) * (pi() / 180) / 2)
          + cos(lat1 * (pi() / 180)) * cos(lat2 * (pi() / 180))
            * sin((lng2 - lng1) * (pi() / 180) / 2) * sin((lng2 - lng1) * (pi() / 180) / 2))))
      $$;
    `,
  },
  {
    // The open-data imports (Bolagsverket, SCB), as SQLite's migration 12: the business
    // description (its words are in `words`, marked with DESCRIPTION_MARK: company-row.ts), which
    // sources list the organisation (bits: 1 Bolagsverket, 2 SCB), each source's own view of its
    // standing, and a fingerprint of its last line in each file (unchanged lines are skipped).
    version: 2,
    name: 'open-data sources: business description, source bits, standings and line fingerprints',
    sql: `
      ALTER TABLE companies ADD COLUMN description text NOT NULL DEFAULT '';
      ALTER TABLE companies ADD COLUMN sources integer NOT NULL DEFAULT 0;
      ALTER TABLE companies ADD COLUMN bolagsverket_standing text;
      ALTER TABLE companies ADD COLUMN scb_activity text;
      ALTER TABLE companies ADD COLUMN bolagsverket_hash bigint;
      ALTER TABLE companies ADD COLUMN scb_hash bigint;
    `,
  },
  {
    // q as a number's prefix (q=55661): the rowids of an org nr range from the index alone, so
    // that a page of them in rowid order reads its own rows, not all of the range's (search/
    // text-sql.ts nameRowids). Also in COMPANY_INDEXES, so that a bulk load builds it.
    version: 3,
    name: 'companies_org_rowid: org nr ranges in rowid order, index-only',
    sql: `CREATE INDEX IF NOT EXISTS companies_org_rowid ON companies (org_nr, rowid);`,
  },
  {
    // Issue 13's shapes against the grain (search/sorted.ts, filter-rows.ts): a legal form or an
    // employee class in revenue order is a range of one index, not a walk of all revenues
    // (sort=-revenue&legal_form=ekonomisk_forening: ~15 ms -> ~1 ms); a legal form's entries
    // carry the flags and a municipality's the county, so a combination that (nearly) never
    // occurs is settled on index entries, not rows (legal_form=bostadsrattsforening&f_skatt=true:
    // 24,000 rows read for none; county=01&municipality=2580 likewise 7,600); verified companies,
    // 7 %, get a name order of their own. The broad legal forms and employee classes are left
    // out (BROAD_LEGAL_FORMS, NARROW_EMPLOYEES_RANK): a walk of all revenues finds theirs at once,
    // and the register stays within its size. The narrow (legal_form) index and the municipality
    // index without the county are replaced. Also in COMPANY_INDEXES, so that a bulk load builds them.
    version: 4,
    name: 'revenue order within a narrow legal form or employee class; flags and county on the entries; verified in name order',
    sql: `
      CREATE INDEX IF NOT EXISTS companies_legal_form_revenue ON companies
        (legal_form, status, revenue, rowid, has_financials, f_skatt, vat_registered, employer_registered, verified)
        WITH (fillfactor = 100) WHERE legal_form NOT IN ('aktiebolag', 'enskild_näringsidkare');
      DROP INDEX IF EXISTS companies_legal_form;
      CREATE INDEX IF NOT EXISTS companies_municipality_county ON companies (municipality_code, status, name_sort, rowid, county_code) WITH (fillfactor = 100);
      DROP INDEX IF EXISTS companies_municipality;
      CREATE INDEX IF NOT EXISTS companies_employees_revenue ON companies (employees_rank, status, revenue, rowid) WITH (fillfactor = 100) WHERE employees_rank >= 2;
      CREATE INDEX IF NOT EXISTS companies_verified_name ON companies (status, name_sort, rowid) WITH (fillfactor = 100) WHERE verified = 1;
    `,
  },
  {
    // The figures' orders hold only the companies that have the figure, as SQLite's always did:
    // search reads a figure's order with the figure present (search/sorted.ts: the rows without
    // it follow by rowid; a range implies it), so no query read the null entries, yet every
    // write of a company without figures (all of the open-data register's 2.5 million) put one
    // in each of the four: on that register 478 MB of indexes, now 32 kB. Bolagsverket's weeks 1
    // and 2 imported in turn (about 90,000 rows written each), six runs of each: median 45.7 s
    // against 47.6 s. Also in COMPANY_INDEXES, so that a bulk load builds them.
    version: 5,
    name: 'the figures\' orders only over companies with the figure',
    sql: `
      DROP INDEX IF EXISTS companies_revenue;
      CREATE INDEX companies_revenue ON companies (revenue, rowid) WHERE revenue IS NOT NULL;
      DROP INDEX IF EXISTS companies_profit;
      CREATE INDEX companies_profit ON companies (profit, rowid) WHERE profit IS NOT NULL;
      DROP INDEX IF EXISTS companies_equity_ratio;
      CREATE INDEX companies_equity_ratio ON companies (equity_ratio, rowid) WHERE equity_ratio IS NOT NULL;
      DROP INDEX IF EXISTS companies_revenue_growth;
      CREATE INDEX companies_revenue_growth ON companies (revenue_growth, rowid) WHERE revenue_growth IS NOT NULL;
    `,
  },
  {
    // Every write of a company that is not HOT (an import's changed row: its fingerprint changes)
    // puts an entry in each index. Three led with the org nr (the unique key, org nr ranges'
    // rowids for q, a weekly import's fingerprints); one index holds all three now, unique on
    // the org nr and carrying the rowid and both fingerprints. companies_id went: a company is
    // read by the rowid its id names (company-repository.ts), and the id, made from the rowid,
    // is unique with it; nothing read that index. Built first: the build holds off writes only,
    // the drops lock the table (searches too) for the rest of the migration's transaction.
    // Also in COMPANY_INDEXES, so that a bulk load builds it.
    version: 6,
    name: 'one org nr index for the key, q\'s ranges and the fingerprints; companies_id dropped',
    sql: `
      CREATE UNIQUE INDEX companies_org_nr_covering ON companies (org_nr) INCLUDE (rowid, bolagsverket_hash, scb_hash);
      DROP INDEX IF EXISTS companies_id;
      DROP INDEX IF EXISTS companies_org_rowid;
      DROP INDEX IF EXISTS companies_fingerprints;
      DROP INDEX IF EXISTS companies_org_nr;
      ALTER INDEX companies_org_nr_covering RENAME TO companies_org_nr;
    `,
  },
  {
    // The sni filter by index keys (sni-keys.ts): `sni` holds each code's division, class and
    // code, so that a prefix is one key, not every code in use under it tested against each row
    // (sni=4 with q: 1 s on 300,000 companies). The rows are rewritten once, by ALTER, which
    // builds the indexes afresh after it: 11 s on 300,000 companies, where an UPDATE took 57 s
    // (92 s on 1.2 million with the machine loaded). The rewrite leaves the column without statistics: ANALYZE gives the
    // planner the keys' shares. The company_counts of SNI codes stay, no longer kept: a replica of
    // the earlier release expands a prefix to them while the rest are rolled, and each code is a
    // key of its own, so its search still finds the companies.
    version: 7,
    name: "sni holds each code's division, class and code: a prefix is one index key",
    sql: `
      CREATE FUNCTION bolag_sni_keys(codes text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE AS $$
      DECLARE keys text[] := '{}'; code text; k text;
      BEGIN
        IF codes = '' THEN RETURN keys; END IF;
        FOREACH code IN ARRAY string_to_array(codes, ',') LOOP
          FOREACH k IN ARRAY ARRAY[left(code, 2), left(code, 4), code] LOOP
            IF NOT k = ANY (keys) THEN keys := keys || k; END IF;
          END LOOP;
        END LOOP;
        RETURN keys;
      END $$;
      ALTER TABLE companies ALTER COLUMN sni TYPE text[] USING bolag_sni_keys(sni_codes);
      DROP FUNCTION bolag_sni_keys(text);
      ANALYZE companies;
    `,
  },
];

/**
 * Creates the indexes that are missing, in the caller's transaction. CREATE INDEX IF NOT EXISTS
 * is not safe against itself: of two sessions creating one name at once (two imports starting
 * together, or ending their first loads together), the later failed on pg_class's unique key.
 * A lock on each name (per schema) makes the later one wait, then find the index there.
 */
export async function createIndexesInTx(client: pg.ClientBase, indexes: readonly { name: string; sql: string }[]): Promise<void> {
  for (const { name } of indexes) await client.query('SELECT pg_advisory_xact_lock(hashtext(current_schema()), hashtext($1))', [name]);
  for (const { sql } of indexes) await client.query(sql);
}

/** The indexes of `companies`, by name: dropped before a bulk load and built after it. */
export const COMPANY_INDEXES: readonly { name: string; sql: string }[] = [
  // Also q's number as a prefix (an org nr range's rowids without reading its rows) and a weekly
  // import's fingerprints, from the index alone (migration 6).
  ['companies_org_nr', `UNIQUE ${ORG_NR_KEY}`],
  // q's four-digit word: the last four digits of an org nr (the first six are a range of org_nr).
  ['companies_org_tail', '(right(org_nr, 4))'],
  // Name order (the default sort), alone and within each filter that commonly leads: a page of
  // a municipality in name order is a range of one index, not a sort of the municipality.
  ['companies_name', '(name_sort, rowid)'],
  ['companies_status_name', '(status, name_sort, rowid)'],
  ['companies_county', '(county_code, status, name_sort, rowid)'],
  // The county after the rowid: tested on the entry, so a county that excludes the municipality
  // costs the municipality's entries, not its rows (migration 4).
  ['companies_municipality_county', MUNICIPALITY_COUNTY],
  ['companies_category', '(category_slug, status, name_sort, rowid)'],
  // The rare flag in name order: a walk of verified companies tests the other filters on 84,000
  // rows, not on 1.2 million (migration 4).
  ['companies_verified_name', VERIFIED_NAME],
  // Revenue order within a narrow legal form, with the flags on the entry: a legal form with a
  // flag that few or none of its companies have is counted and collected from the entries (migration 4).
  ['companies_legal_form_revenue', LEGAL_FORM_REVENUE],
  ['companies_postal', '(postal_code, employees_rank)'],
  ['companies_city', '(city_folded)'],
  // Sort orders: value then rowid, both ways through one index (a descending order's ties by
  // rowid ascending come from an incremental sort of each run of equal values; employees_class,
  // with few values and long runs, is read value by value instead: search/sorted.ts). The
  // figures only where a company has them (migration 5).
  ['companies_revenue', FIGURE_ORDER('revenue')],
  ['companies_profit', FIGURE_ORDER('profit')],
  ['companies_registration_date', '(registration_date, rowid)'],
  ['companies_equity_ratio', FIGURE_ORDER('equity_ratio')],
  ['companies_revenue_growth', FIGURE_ORDER('revenue_growth')],
  ['companies_employees', '(employees_rank, rowid)'],
  // Revenue order within a narrow employee class (migration 4).
  ['companies_employees_revenue', EMPLOYEES_REVENUE],
  ['companies_words', 'USING gin (words)'],
  ['companies_sni', 'USING gin (sni)'],
  ['companies_geo', 'USING gist (point(lng, lat))'],
].map(([name, def]) => ({
  name,
  sql: def.startsWith('UNIQUE')
    ? `CREATE UNIQUE INDEX IF NOT EXISTS ${name} ON companies ${def.slice('UNIQUE '.length)}`
    : `CREATE INDEX IF NOT EXISTS ${name} ON companies ${def}`,
}));
