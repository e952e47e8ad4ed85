// An all-or-nothing import on PostgreSQL (our JSONL and CSV, or --strict) runs in one transaction.
// Outbox writers commit one after another (a lock taken at a transaction's first outbox row), and
// until 2026-11-28 the import wrote its events to the outbox batch by batch: from its first
// changed batch to its commit, every other writer of an event on every replica (an export's
// settle, a webhook's test event) waited, minutes for a large file. Its events now wait in a
// table of their own (import_events) and reach the outbox in one statement before the commit.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateBolagsverket } from '../../bench/import-bulk/generate-bolagsverket.js';
import { seedRegister } from '../../src/app/seed-register.js';
import type { Company } from '../../src/core/company.js';
import { importOpenData } from '../../src/import/import-open-data.js';
import { planRecord } from '../../src/import/plan-record.js';
import type { ImportRecord } from '../../src/store/import-types.js';
import type { PgStore } from '../../src/store/postgres/pg-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { DATABASE_URL, openFreshPgStore, PG_SKIP_REASON } from '../helpers/pg.js';

const BATCH = 10;
const dir = mkdtempSync(join(tmpdir(), 'bolag-pg-atomic-outbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!DATABASE_URL)(`an all-or-nothing import and the outbox on PostgreSQL ${DATABASE_URL ? '' : PG_SKIP_REASON}`, () => {
  let store: PgStore;
  beforeEach(async () => {
    store = await openFreshPgStore();
    await seedRegister(store, { count: 60, seed: 'pg-atomic-outbox' });
  });
  afterEach(async () => {
    await store.close();
  });

  /** Rows left in the staging table: none, once an import has committed or rolled back. */
  async function staged(): Promise<number> {
    return (await store.db.query<{ n: number }>('SELECT count(*) AS n FROM import_events')).rows[0].n;
  }

  async function companies(): Promise<Company[]> {
    const all: Company[] = [];
    for await (const c of store.companies.stream({ status: null, radius_km: 10 })) all.push(c);
    return all;
  }

  it('lets another writer of an event commit while it runs; its own events follow, in order, at its commit', { timeout: 60_000 }, async () => {
    const register = await companies();
    const renamed = register.slice(0, 5 * BATCH);
    const before = (await store.outbox.readAfter(0, 10_000)).length;
    let pause!: () => void;
    const paused = new Promise<void>((r) => (pause = r));
    let resume!: () => void;
    const resumed = new Promise<void>((r) => (resume = r));
    async function* records(): AsyncGenerator<ImportRecord> {
      for (const [i, c] of renamed.entries()) {
        // Three batches in: the first two's writes, events included, are done (each batch's are
        // sent before the next batch's read).
        if (i === 3 * BATCH) {
          pause();
          await resumed;
        }
        yield { line: i + 1, data: { ...c, name: `${c.name} Omdöpt` } };
      }
    }
    const importing = store.companies.importRecords(records(), planRecord, { batchSize: BATCH });
    await paused;
    await new Promise((r) => setTimeout(r, 300));

    // Another process writes an event meanwhile: it must not wait for the import.
    const other = await store.db.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query("SET LOCAL lock_timeout = '3s'");
      await other.query('INSERT INTO outbox (event) VALUES ($1)', [JSON.stringify({ id: 'evt_other', type: 'export.completed', created_at: new Date().toISOString(), data: {} })]);
      await other.query('COMMIT');
      // Nothing of the import is visible before it commits.
      expect((await store.outbox.readAfter(0, 10_000)).slice(before).map((e) => e.event.id)).toEqual(['evt_other']);
    } catch (e) {
      await other.query('ROLLBACK');
      resume();
      await importing;
      throw e;
    } finally {
      other.release();
    }

    resume();
    const result = await importing;
    expect(result.updated).toBe(renamed.length);
    const after = (await store.outbox.readAfter(0, 10_000)).slice(before);
    expect(after[0].event.id).toBe('evt_other');
    const updates = after.slice(1);
    expect(updates.every((e) => e.event.type === 'company.updated')).toBe(true);
    // One event a company, in the file's order, with rising sequence numbers.
    expect(updates.map((e) => (e.event.data as { company_id: string }).company_id)).toEqual(renamed.map((c) => c.id));
    for (let i = 1; i < after.length; i++) expect(after[i].seq).toBeGreaterThan(after[i - 1].seq);

    expect(await staged()).toBe(0);
    // The next import stages afresh.
    const again = await store.companies.importRecords(
      renamed.slice(0, BATCH).map((c, i) => ({ line: i + 1, data: { ...c, name: `${c.name} Igen` } })),
      planRecord,
      { batchSize: BATCH },
    );
    expect(again.updated).toBe(BATCH);
    expect((await store.outbox.readAfter(0, 10_000)).slice(before)).toHaveLength(1 + renamed.length + BATCH);
  });

  it('a week of the open files with --strict: every event, the vanished rows\' included, reaches the outbox', { timeout: 120_000 }, async () => {
    const week1 = join(dir, 'week1.txt');
    const week2 = join(dir, 'week2.txt');
    generateBolagsverket(week1, 1_000, 1);
    generateBolagsverket(week2, 1_000, 2);
    const clean = async (file: string) => {
      // --strict stops at the dirty lines the generator writes: leave them out.
      const unreadable = new Set<number>();
      const scratch = openSqliteStore(':memory:');
      await importOpenData(scratch, file, { source: 'bolagsverket', onError: (line) => unreadable.add(line) });
      await scratch.close();
      writeFileSync(file, readFileSync(file, 'utf8').split('\n').filter((_, i) => !unreadable.has(i + 1)).join('\n'));
    };
    await clean(week1);
    await clean(week2);
    await importOpenData(store, week1, { source: 'bolagsverket', strict: true });
    const before = (await store.outbox.readAfter(0, 100_000)).length;
    const { result } = await importOpenData(store, week2, { source: 'bolagsverket', strict: true });
    expect(result.vanished).toBeGreaterThan(0);
    const written = (await store.outbox.readAfter(0, 100_000)).slice(before);
    const byType: Record<string, number> = {};
    for (const e of written) byType[e.event.type] = (byType[e.event.type] ?? 0) + 1;
    expect(byType).toEqual(result.events);
    expect(await staged()).toBe(0);
  });

  it('an import that fails leaves no event behind, and the next one stages afresh', { timeout: 60_000 }, async () => {
    const register = await companies();
    const before = (await store.outbox.readAfter(0, 10_000)).length;
    async function* failing(): AsyncGenerator<ImportRecord> {
      for (const [i, c] of register.slice(0, 3 * BATCH).entries()) yield { line: i + 1, data: { ...c, name: `${c.name} Borta` } };
      throw new Error('line 31: unreadable');
    }
    await expect(store.companies.importRecords(failing(), planRecord, { batchSize: BATCH })).rejects.toThrow(/line 31/);
    expect(await store.outbox.readAfter(0, 10_000)).toHaveLength(before);
    expect(await staged()).toBe(0);
    const ok = await store.companies.importRecords([{ line: 1, data: { ...register[0], name: `${register[0].name} Kvar` } }], planRecord, {});
    expect(ok.updated).toBe(1);
    expect((await store.outbox.readAfter(0, 10_000)).slice(before).map((e) => e.event.type)).toEqual(['company.updated']);
  });
});

if (!DATABASE_URL) describe('an all-or-nothing import and the outbox on PostgreSQL', () => it.skip(PG_SKIP_REASON, () => {}));
