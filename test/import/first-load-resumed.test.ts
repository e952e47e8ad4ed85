// A first load stopped half-way (Ctrl-C after some windows were committed) and run again: the run
// that finishes it records no events, as the first load would have; until 2026-11-29 it was taken
// for a weekly update, and every company the first run had not reached became a company.created
// webhook. The next week's file then records events as usual. The real binary, on SQLite and
// (with DATABASE_URL) on PostgreSQL.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { firstLoadNote } from '../../src/store/import-settings.js';
import { SOURCE_BITS } from '../../src/store/import-types.js';
import { generateWeeks, weekFiles } from '../helpers/generated-weeks.js';
import { DATABASE_URL, dropSchema, freshSchemaUrl } from '../helpers/pg.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'bolag-first-load-resumed-'));
const schemas: string[] = [];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const s of schemas) await dropSchema(s);
});

/** Runs a query on the register: the SQLite file or the PostgreSQL schema. */
interface Register {
  args: string[];
  one(sql: string): Promise<number | null>;
  close(): Promise<void>;
}

function sqliteRegister(): Register {
  const path = join(dir, 'register.db');
  return {
    args: ['--db', path],
    async one(sql) {
      if (!existsSync(path)) return null;
      const db = new Database(path, { readonly: true });
      try {
        return Number(db.prepare(sql).pluck().get());
      } catch {
        return null; // not migrated yet
      } finally {
        db.close();
      }
    },
    close: async () => undefined,
  };
}

function pgRegister(): Register {
  const { url, schema } = freshSchemaUrl();
  schemas.push(schema);
  const client = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
  const connected = client.connect();
  return {
    args: ['--database-url', url],
    async one(sql) {
      await connected;
      try {
        return Number(Object.values((await client.query(sql)).rows[0])[0]);
      } catch {
        return null; // not migrated yet
      }
    },
    close: () => client.end(),
  };
}

const NOTE = firstLoadNote(SOURCE_BITS.bolagsverket);

// Enough rows that Ctrl-C comes before the last window: SQLite alone on its file commits every 2 s.
const STORES = [{ name: 'SQLite', open: sqliteRegister, rows: 400_000 }, ...(DATABASE_URL ? [{ name: 'PostgreSQL', open: pgRegister, rows: 120_000 }] : [])];

describe.each(STORES)(
  'a first load stopped half-way and run again, on $name',
  ({ name, open, rows }) => {
    it('finishes without events; the next week records them', { timeout: 240_000 }, async () => {
      const files = weekFiles(mkdtempSync(join(dir, `${name}-`)), 2);
      generateWeeks(files, rows, 10);
      const register = open();
      try {
        const run = (file: string) => spawn(process.execPath, [join(ROOT, 'bin/bolag.js'), ...register.args, 'db', 'import', '--source', 'bolagsverket', file], { stdio: ['ignore', 'pipe', 'pipe'] });
        const child = run(files.bolagsverket[0]);
        const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
        for (;;) {
          await sleep(50);
          if (((await register.one('SELECT count(*) FROM companies')) ?? 0) > 0) break;
        }
        child.kill('SIGINT');
        await sleep(100);
        child.kill('SIGINT');
        expect(await exited).toBe(130);
        const committed = (await register.one('SELECT count(*) FROM companies'))!;
        expect(committed).toBeGreaterThan(0);
        // Stopped half-way indeed: the run that finishes it has companies to create.
        expect(committed).toBeLessThan(rows * 0.9);
        expect(await register.one(`SELECT count(*) FROM settings WHERE name = '${NOTE}'`)).toBe(1);

        // The same command again finishes the load: every company, and not one event.
        const finish = run(files.bolagsverket[0]);
        let out = '';
        finish.stdout!.on('data', (b: Buffer) => (out += b.toString()));
        expect(await new Promise((r) => finish.once('exit', r))).toBe(0);
        const summary = JSON.parse(out) as { created: number; events: Record<string, number> };
        expect(summary.events).toEqual({});
        expect(summary.created).toBeGreaterThan(0);
        const total = (await register.one('SELECT count(*) FROM companies'))!;
        expect(total).toBe(committed + summary.created);
        expect(await register.one('SELECT count(*) FROM outbox')).toBe(0);
        expect(await register.one(`SELECT count(*) FROM settings WHERE name = '${NOTE}'`)).toBe(0);

        // Finished: the next week is a weekly update, with its events.
        const week2 = run(files.bolagsverket[1]);
        let out2 = '';
        week2.stdout!.on('data', (b: Buffer) => (out2 += b.toString()));
        expect(await new Promise((r) => week2.once('exit', r))).toBe(0);
        const events = (JSON.parse(out2) as { events: Record<string, number> }).events;
        expect(events['company.updated']).toBeGreaterThan(0);
        expect(await register.one('SELECT count(*) FROM outbox')).toBeGreaterThan(0);
      } finally {
        await register.close();
      }
    });
  },
);
