// An import that fails leaves the PostgreSQL register as it found it, events included. A batch's
// writes run on the server while the importer goes on (store/postgres/batch-writes.ts): one
// statement after the other, each sent once the one before is done. Until 2026-11-27 a failure
// rolled the transaction back while such writes were on their way, and the statements sent after
// the ROLLBACK ran on their own and stayed: an "all or nothing" import that failed left companies
// renamed and their webhooks queued.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateBolagsverket } from '../../bench/import-bulk/generate-bolagsverket.js';
import { seedRegister } from '../../src/app/seed-register.js';
import type { Company } from '../../src/core/company.js';
import { importFile } from '../../src/import/import-file.js';
import { importOpenData } from '../../src/import/import-open-data.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { DATABASE_URL, openFreshPgStore, PG_SKIP_REASON } from '../helpers/pg.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-pg-failed-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What an import may change: every company's columns, the events, the statistics. */
async function state(store: PgStore) {
  const q = async (sql: string) => (await store.db.query({ text: sql, rowMode: 'array' })).rows;
  return {
    companies: await q('SELECT rowid, org_nr, name, status, legal_form, postal_code, sources, bolagsverket_hash, updated_at FROM companies ORDER BY rowid'),
    outbox: await q('SELECT seq, event FROM outbox ORDER BY seq'),
    counts: await q("SELECT dim, value, status, n FROM company_counts WHERE n != 0 ORDER BY dim, value, status"),
  };
}

describe.skipIf(!DATABASE_URL)(`a failed import on PostgreSQL changes nothing ${DATABASE_URL ? '' : PG_SKIP_REASON}`, () => {
  let store: PgStore;
  beforeEach(async () => {
    store = await openFreshPgStore();
  });
  afterEach(async () => {
    await store.close();
  });

  it('a weekly update with --strict that meets a broken line, its earlier batches written meanwhile', { timeout: 120_000 }, async () => {
    const week1 = join(dir, 'week1.txt');
    const week2 = join(dir, 'week2.txt');
    generateBolagsverket(week1, 2_000, 1);
    generateBolagsverket(week2, 2_000, 2);
    await importOpenData(store, week1, { source: 'bolagsverket' });
    const before = await state(store);
    // The generator writes the dirty lines the real files have; --strict would stop at the first.
    const unreadable = new Set<number>();
    const scratch = openSqliteStore(':memory:');
    await importOpenData(scratch, week2, { source: 'bolagsverket', onError: (line) => unreadable.add(line) });
    await scratch.close();
    expect(unreadable.size).toBeGreaterThan(0);
    // Week 2 read cleanly, then a line cut short near its end: every batch before it renames, moves and creates.
    const lines = readFileSync(week2, 'utf8').split('\n').filter((_, i) => !unreadable.has(i + 1));
    writeFileSync(week2, lines.join('\n'));
    lines.splice(lines.length - 20, 0, '"5566778899$ORGNR-IDORG";"trasig');
    const broken = join(dir, 'week2-broken.txt');
    writeFileSync(broken, lines.join('\n'));
    for (const batchSize of [3, 50, 500]) {
      await expect(importOpenData(store, broken, { source: 'bolagsverket', strict: true, batchSize, onError: () => {} })).rejects.toThrow(/line/);
      expect(await state(store)).toEqual(before);
    }
    // The same week without the broken line is what changes it.
    const done = await importOpenData(store, week2, { source: 'bolagsverket', strict: true });
    expect(done.result.events['company.updated']).toBeGreaterThan(10);
    expect((await state(store)).outbox.length).toBeGreaterThan(before.outbox.length);
  });

  it('our JSONL or CSV that meets a broken line, its earlier batches written meanwhile', { timeout: 120_000 }, async () => {
    await seedRegister(store, { count: 600, seed: 'pg-failed-import' });
    const before = await state(store);
    const companies: Company[] = [];
    for await (const c of store.companies.stream({ status: null, radius_km: 10 })) companies.push(c);
    // Every company renamed, so that every batch writes; a broken line near the end.
    const lines = companies.map((c) => JSON.stringify({ ...c, name: `${c.name} Omdöpt` }));
    lines.splice(lines.length - 5, 0, '{"org_nr": "556677-8899", "name": ');
    const file = join(dir, 'renamed.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    for (const batchSize of [3, 50]) {
      await expect(importFile(store, file, { batchSize })).rejects.toThrow();
      expect(await state(store)).toEqual(before);
    }
    // CSV: a line with too many fields fails as it is read, with the batch before it on its way.
    const csv = join(dir, 'renamed.csv');
    const rows = companies.map((c) => `${c.org_nr};${c.name} Omdöpt`);
    rows.splice(rows.length - 5, 0, '556677-8899;Trasig;rad');
    writeFileSync(csv, `org_nr;name\n${rows.join('\n')}\n`);
    for (const batchSize of [3, 50]) {
      await expect(importFile(store, csv, { batchSize })).rejects.toThrow(/fields/);
      expect(await state(store)).toEqual(before);
    }
  });
});
