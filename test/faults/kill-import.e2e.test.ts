// SIGKILL in the middle of `bolag db import`: the register is all or nothing. The import is
// killed once it is seen writing (it holds the write lock: SQLite; it has updated the first
// company's row: PostgreSQL); afterwards no company carries the new name and the outbox holds no
// company event. Importing the same file again then changes every company, with one event each.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeAll, expect, it } from 'vitest';
import type { SearchFilters } from '../../src/core/search-params.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { ensureBuilt } from '../exports/built.js';
import { waitFor } from '../webhooks/helpers.js';
import { bolagDb, faultDatabase, forEachKind, type FaultDatabase, type Kind } from './binary.js';
import { splitSchema } from '../../src/store/postgres/url.js';

/** Enough that the import runs for a few hundred milliseconds after its first write, so the kill lands inside it. */
const RECORDS: Record<Kind, number> = { sqlite: 8_000, postgres: 1_500 };
const SUFFIX = ' Nya';
/** Every company, whatever its status or advertising block. */
const EVERY_COMPANY = { status: null } as SearchFilters;

/** True while another process is inside its import transaction, having written. */
function writerProbe(db: FaultDatabase): { busy(): Promise<boolean>; close(): Promise<void> } {
  if ('dbPath' in db.location) {
    const probe = new Database(db.location.dbPath);
    probe.pragma('busy_timeout = 0');
    return {
      async busy() {
        try {
          probe.exec('BEGIN IMMEDIATE');
          probe.exec('ROLLBACK');
          return false;
        } catch (e) {
          if ((e as { code?: string }).code === 'SQLITE_BUSY') return true;
          throw e;
        }
      },
      close: async () => void probe.close(),
    };
  }
  const { connectionString, schema } = splitSchema(db.location.databaseUrl);
  const client = new pg.Client({ connectionString, options: `-c search_path=${schema},public` });
  const connected = client.connect();
  return {
    async busy() {
      await connected;
      try {
        await client.query('BEGIN');
        // The file's first record is the register's first company (the stream's order).
        await client.query('SELECT 1 FROM companies ORDER BY rowid LIMIT 1 FOR UPDATE NOWAIT');
        return false;
      } catch (e) {
        if ((e as { code?: string }).code === '55P03') return true; // lock_not_available: the import updated it
        throw e;
      } finally {
        await client.query('ROLLBACK');
      }
    },
    close: () => client.end(),
  };
}

async function renamedCount(store: Store): Promise<number> {
  let n = 0;
  for await (const c of store.companies.stream(EVERY_COMPANY, { batchSize: 5000 })) if (c.name.endsWith(SUFFIX)) n++;
  return n;
}

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

forEachKind((kind) => {
  it('an import killed mid-way leaves the register and the outbox as they were; run again, it applies whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolag-kill-import-'));
    const db = faultDatabase(kind, dir);
    let store: Store | undefined;
    cleanups.push(async () => {
      await store?.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    const count = RECORDS[kind];
    const seeded = await bolagDb(db, dir, ['seed', '--count', String(count)]);
    expect(seeded.exitCode, String(seeded.stderr)).toBe(0);

    store = await openStore(db.location);
    const lines: string[] = [];
    for await (const c of store.companies.stream(EVERY_COMPANY, { batchSize: 5000 })) {
      lines.push(JSON.stringify({ org_nr: c.org_nr, name: `${c.name}${SUFFIX}` }));
    }
    expect(lines).toHaveLength(count);
    const file = join(dir, 'renamed.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const outboxBefore = (await store.outbox.readAfter(0, 100_000)).length;

    const probe = writerProbe(db);
    try {
      const importing = bolagDb(db, dir, ['import', file]);
      await waitFor(async () => (await probe.busy()) || importing.exitCode !== null, { timeoutMs: 60_000, intervalMs: 5, what: 'the import writing' });
      importing.kill('SIGKILL');
      const killed = await importing;
      // It was stopped inside its transaction, not after it.
      expect(killed.signal, `${killed.exitCode} ${String(killed.stderr)}`).toBe('SIGKILL');
      expect(String(killed.stdout)).toBe('');
    } finally {
      await probe.close();
    }

    expect(await renamedCount(store)).toBe(0);
    expect((await store.outbox.readAfter(0, 100_000)).length).toBe(outboxBefore);

    const again = await bolagDb(db, dir, ['import', file]);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(JSON.parse(String(again.stdout))).toMatchObject({ updated: count, events: { 'company.updated': count } });
    expect(await renamedCount(store)).toBe(count);
    expect((await store.outbox.readAfter(0, 100_000)).length).toBe(outboxBefore + count);
  }, 180_000);
});
