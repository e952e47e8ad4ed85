// Week after week on real SQLite: identical files change nothing, a vanished organisation is
// marked and comes back when it reappears (its fingerprint cleared), events as for our format.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importOpenData } from '../../src/import/import-open-data.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'open-data');
let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bolag-weeks-'));
  store = openSqliteStore(join(dir, 'register.db'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const bolagsverket = (week: number) => importOpenData(store, join(FIXTURES, `bolagsverket-week${week}.txt`), { source: 'bolagsverket' });
const events = async () => (await store.outbox.readAfter(0, 1000)).map((e) => ({ type: e.event.type, ...(e.event.data as Record<string, unknown>) }));

describe('weekly Bolagsverket imports', () => {
  it('records nothing for an identical file', async () => {
    await bolagsverket(1);
    const again = await bolagsverket(1);
    expect(again.result).toMatchObject({ created: 0, updated: 0, unchanged: 11, vanished: 0, events: {} });
    expect(await events()).toEqual([]);
  });

  it('marks a vanished organisation and restores it when it is back', async () => {
    await bolagsverket(1);
    const week2 = await bolagsverket(2);
    expect(week2.result.vanished).toBe(1);
    expect(await store.companies.get('559100-0061')).toMatchObject({ status: 'avregistrerad' });

    const back = await bolagsverket(1);
    expect(back.result).toMatchObject({ vanished: 1 }); // 559100-0079 only came in week 2
    expect(await store.companies.get('559100-0061')).toMatchObject({ status: 'aktiv' });
    expect(await store.companies.get('559100-0079')).toMatchObject({ status: 'avregistrerad' });
    const restored = (await events()).filter((e) => e.org_nr === '559100-0061');
    expect(restored.map((e) => [e.type, e.status])).toEqual([
      ['company.status_changed', 'avregistrerad'],
      ['company.status_changed', 'aktiv'],
    ]);
  });
});
