// PostgreSQL's weekly import sends a batch's writes behind the next batch's read, so that the
// server writes while the importer plans (store/postgres/company-import.ts, `due`): that read
// does not see the writes of the batch before it, and takes those companies from what that batch
// wrote. Here a week whose org nrs repeat on neighbouring lines (in one batch and across two)
// is imported in batches of three on both stores: PostgreSQL's rows, events and statistics are
// what SQLite's import, one write after the other, leaves.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateBolagsverket } from '../../bench/import-bulk/generate-bolagsverket.js';
import { withCheckDigit } from '../../src/core/orgnr.js';
import { importOpenData } from '../../src/import/import-open-data.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { DATABASE_URL, openFreshPgStore, PG_SKIP_REASON } from '../helpers/pg.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-pg-pipelined-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 3_000;
const COLUMNS = 'org_nr, name, legal_form, status, street, postal_code, municipality_code, description, sources, bolagsverket_hash';

/**
 * Week 2 with repeats: after every 7th line, the same organisation renamed again; after every
 * 11th, a new organisation, then that one renamed on the next line. In batches of three, some
 * pairs share a batch and some straddle two.
 */
function weekWithRepeats(week2: string): string {
  const [header, ...lines] = readFileSync(week2, 'utf8').split('\n').filter((l) => l !== '');
  const out = [header];
  lines.forEach((line, i) => {
    out.push(line);
    const named = /^("[^"]*";"[^"]*";"[^"]*";")([^$"]*)(\$FORETAGSNAMN)/.exec(line);
    if (!named || !line.includes('ORGNR-IDORG')) return;
    if (i % 7 === 0) out.push(line.replace(named[0], `${named[1]}${named[2]} Igen${named[3]}`));
    if (i % 11 === 0) {
      const orgNr = (text: string) => text.replace(/^"\d{10}/, `"${withCheckDigit(`55990${String(i).padStart(4, '0')}`)}`);
      out.push(orgNr(line), orgNr(line.replace(named[0], `${named[1]}${named[2]} Ny${named[3]}`)));
    }
  });
  return `${out.join('\n')}\n`;
}

if (!DATABASE_URL) {
  describe('PostgreSQL weekly import, batches pipelined', () => it.skip(PG_SKIP_REASON, () => {}));
} else {
  describe('PostgreSQL weekly import, batches pipelined', () => {
    it('leaves the rows, events and statistics that SQLite’s import leaves, with org nrs repeated across batches', { timeout: 120_000 }, async () => {
      const week1 = join(dir, 'week1.txt');
      const week2 = join(dir, 'week2.txt');
      const repeats = join(dir, 'week2-repeats.txt');
      generateBolagsverket(week1, ROWS, 1);
      generateBolagsverket(week2, ROWS, 2);
      writeFileSync(repeats, weekWithRepeats(week2));

      const sqlite = openSqliteStore(join(dir, 'reference.db'));
      const pg: PgStore = await openFreshPgStore();
      try {
        await importOpenData(sqlite, week1, { source: 'bolagsverket' });
        await importOpenData(pg, week1, { source: 'bolagsverket' });
        const a = await importOpenData(sqlite, repeats, { source: 'bolagsverket', batchSize: 3 });
        const b = await importOpenData(pg, repeats, { source: 'bolagsverket', batchSize: 3 });
        expect(a.result.events['company.updated']).toBeGreaterThan(50);
        expect(a.result.events['company.created']).toBeGreaterThan(20);
        expect(b.result).toEqual(a.result);

        const sqliteRows = sqlite.db.prepare(`SELECT ${COLUMNS} FROM companies ORDER BY org_nr`).raw(true).all();
        const pgRows = (await pg.db.query({ text: `SELECT ${COLUMNS} FROM companies ORDER BY org_nr`, rowMode: 'array' })).rows;
        expect(pgRows.length).toBe(sqliteRows.length);
        expect(pgRows).toEqual(sqliteRows);
        // A second line of an org nr, renamed: the first stands, the second is counted (until
        // 2026-11-29 the second stood, both told), on both stores alike.
        expect(pgRows.some((r) => String(r[1]).endsWith(' Igen'))).toBe(false);
        expect(pgRows.some((r) => String(r[1]).endsWith(' Ny'))).toBe(false);
        expect(a.stats.repeatedLines).toBeGreaterThan(20);
        expect(b.stats.repeatedLines).toBe(a.stats.repeatedLines);

        // The events in the file's order: each company's changes as one line after the other made them.
        const sqliteEvents = sqlite.db
          .prepare("SELECT json_extract(event, '$.type') || ' ' || json_extract(subject, '$.org_nr') FROM outbox ORDER BY seq")
          .pluck()
          .all();
        const pgEvents = (await pg.db.query<{ e: string }>("SELECT (event->>'type') || ' ' || (subject->>'org_nr') AS e FROM outbox ORDER BY seq")).rows.map((r) => r.e);
        // Those of the vanished step at the end, one a company, in an order of their own on each store.
        const gone = a.result.vanished ?? 0;
        expect(gone).toBeGreaterThan(0);
        expect(pgEvents.slice(0, -gone)).toEqual(sqliteEvents.slice(0, -gone));
        expect(pgEvents.slice(-gone).sort()).toEqual(sqliteEvents.slice(-gone).sort());

        // company_counts as a count of the rows gives them.
        const stored = (await pg.db.query<{ k: string }>("SELECT dim || '|' || value || '|' || status || '|' || n AS k FROM company_counts WHERE n != 0 ORDER BY 1")).rows.map((r) => r.k);
        const truth = (
          await pg.db.query<{ k: string }>(`SELECT k FROM (
            SELECT 'county|' || county_code || '|' || status || '|' || count(*) AS k FROM companies GROUP BY county_code, status
            UNION ALL SELECT 'municipality|' || municipality_code || '|' || status || '|' || count(*) FROM companies GROUP BY municipality_code, status
            UNION ALL SELECT 'category|' || category_slug || '|' || status || '|' || count(*) FROM companies GROUP BY category_slug, status
            UNION ALL SELECT 'legal_form|' || legal_form || '|' || status || '|' || count(*) FROM companies GROUP BY legal_form, status
            UNION ALL SELECT 'sni|' || code || '|' || status || '|' || count(*) FROM companies, unnest(sni) AS code GROUP BY code, status) t ORDER BY 1`)
        ).rows.map((r) => r.k);
        expect(stored).toEqual(truth);
      } finally {
        await sqlite.close();
        await pg.close();
      }
    });
  });
}
