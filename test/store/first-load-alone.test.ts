// A first load on SQLite builds its side indexes (full text, spatial, SNI) at its end from a
// snapshot of the rows and copies them over the register's, so whatever another import commits
// meanwhile would be missing from them (two first loads at once lost half the names from the
// full-text index, 1 run in many). A first load therefore holds the register's first-load lock
// for its whole run, and every other import waits while another process holds it. Here the lock
// is held by a live child process, as a running first load in another process holds it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedRegister } from '../../src/app/seed-register.js';
import type { Company } from '../../src/core/company.js';
import { withCheckDigit } from '../../src/core/orgnr.js';
import { planRecord } from '../../src/import/plan-record.js';
import type { ImportOptions, ImportRecord } from '../../src/store/import-types.js';
import { lockPath } from '../../src/store/sqlite/file-lock.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

let dir: string;
let store: SqliteStore;
let holder: ChildProcess | null = null;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bolag-first-load-alone-'));
  store = openSqliteStore(join(dir, 'register.db'));
  await seedRegister(store, { count: 30, seed: 'first-load-alone' });
});
afterEach(async () => {
  holder?.kill('SIGKILL');
  holder = null;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The first-load lock, held by a live process of its own until `release` is called. */
function holdLockElsewhere(): { release: () => Promise<void> } {
  holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  writeFileSync(lockPath(join(dir, 'register.db'), 'first-load'), `${holder.pid}\n`);
  const child = holder;
  return {
    release: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function newCompany(base: Company, orgNr: number): ImportRecord[] {
  const { id: _id, ...rest } = base;
  return [{ line: 1, data: { ...rest, org_nr: withCheckDigit(String(orgNr)), name: `Väntande Bolag ${orgNr} AB` } }];
}

const named = (orgNr: number) => store.db.prepare('SELECT count(*) FROM companies WHERE name = ?').pluck().get(`Väntande Bolag ${orgNr} AB`);

describe('a first load runs alone on a SQLite register', () => {
  for (const [kind, opts] of [
    ['an import batch by batch', { atomic: false }],
    ['an import all or nothing', { atomic: true }],
    ['another first load', { atomic: false, firstLoadOf: 2 }],
  ] as [string, ImportOptions][]) {
    it(`${kind} waits while another process's first load holds the lock, then imports`, async () => {
      const base = (await store.companies.get('c_0000001'))!;
      const lock = holdLockElsewhere();
      let done = false;
      let toldWaiting = 0;
      const importing = store.companies.importRecords(newCompany(base, 559900300), planRecord, { ...opts, onWait: () => toldWaiting++ }).then((r) => {
        done = true;
        return r;
      });
      await sleep(600);
      expect(done).toBe(false);
      expect(named(559900300)).toBe(0);
      // Told once, not at every look at the lock.
      expect(toldWaiting).toBe(1);
      await lock.release();
      expect((await importing).created).toBe(1);
      expect(named(559900300)).toBe(1);
      expect(toldWaiting).toBe(1);
    });
  }

  for (const atomic of [false, true]) {
    it(`an import of a source that waited for that source's first load elsewhere records its events (${atomic ? 'all or nothing' : 'batch by batch'})`, async () => {
      // Until 2026-11-27 one all or nothing decided it was the source's first load before it
      // waited, and ran as one once the other load was done: no events, no fingerprints.
      const base = (await store.companies.get('c_0000001'))!;
      const lock = holdLockElsewhere();
      const importing = store.companies.importRecords([{ line: 1, data: { ...base, name: 'Omdöpt Efter Väntan AB' } }], planRecord, { atomic, firstLoadOf: 2 });
      await sleep(300);
      // The other process's first load of source 2 commits its rows and ends.
      store.db.exec('UPDATE companies SET sources = sources | 2');
      await lock.release();
      const result = await importing;
      expect(result.updated).toBe(1);
      expect(result.events).toEqual({ 'company.updated': 1 });
      expect(store.db.prepare("SELECT count(*) FROM outbox WHERE event LIKE '%company.updated%'").pluck().get()).toBe(1);
    });
  }

  it('an import that finds no lock held is not told to wait', async () => {
    const base = (await store.companies.get('c_0000001'))!;
    let toldWaiting = 0;
    await store.companies.importRecords(newCompany(base, 559900301), planRecord, { atomic: false, onWait: () => toldWaiting++ });
    expect(toldWaiting).toBe(0);
  });
});
