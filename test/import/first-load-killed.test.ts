// A first load (batch by batch) stopped by Ctrl-C, or killed, after some of its windows were
// committed: it had emptied the full-text, spatial and SNI indexes to build them at its end, and
// until 2026-11-27 they stayed without its rows for good, since the next import of the source is
// not a first load (name searches missed those companies). Now the next import builds them first
// (src/store/sqlite/side-index-repair.ts). The real binary, as a user runs it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { importOpenData } from '../../src/import/import-open-data.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { generateWeeks, weekFiles } from '../helpers/generated-weeks.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'bolag-review-killed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a first load interrupted after its first commits', () => {
  it('has its full-text and spatial indexes built by the next import', { timeout: 240_000 }, async () => {
    const files = weekFiles(dir, 2);
    generateWeeks(files, 150_000, 10);
    const db = join(dir, 'register.db');
    const child = spawn(process.execPath, [join(ROOT, 'bin/bolag.js'), '--db', db, 'db', 'import', '--source', 'bolagsverket', files.bolagsverket[0]], { stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    // Ctrl-C once the load has committed rows.
    for (;;) {
      await sleep(50);
      if (!existsSync(db)) continue;
      const look = new Database(db, { readonly: true });
      let n = 0;
      try {
        n = look.prepare('SELECT count(*) FROM companies').pluck().get() as number;
      } catch {
        // not migrated yet
      } finally {
        look.close();
      }
      if (n > 0) break;
    }
    // Ctrl-C twice: the second ends the process at once (src/cli/main.ts); a kill does the same.
    child.kill('SIGINT');
    await sleep(100);
    child.kill('SIGINT');
    const code = await exited;
    const store = openSqliteStore(db);
    const counts = () => ({
      rows: store.db.prepare('SELECT count(*) FROM companies').pluck().get() as number,
      fts: store.db.prepare('SELECT count(*) FROM companies_fts_docsize').pluck().get() as number,
      located: store.db.prepare('SELECT count(*) FROM companies WHERE lat IS NOT NULL AND lng IS NOT NULL').pluck().get() as number,
      geo: store.db.prepare('SELECT count(*) FROM companies_geo').pluck().get() as number,
    });
    const afterKill = counts();
    expect(afterKill.rows).toBeGreaterThan(0);
    expect(afterKill.fts).toBeLessThan(afterKill.rows);
    // The next week, imported as usual (not a first load: the source is listed now).
    const week2 = await importOpenData(store, files.bolagsverket[1], { source: 'bolagsverket' });
    const afterWeek2 = counts();
    expect(week2.result.updated).toBeGreaterThan(0);
    // Nothing pending any more, and the first company the interrupted load wrote found by a word of its name.
    expect(store.db.prepare("SELECT count(*) FROM settings WHERE name = 'first_load_side_indexes'").pluck().get()).toBe(0);
    const word = (store.db.prepare('SELECT name FROM companies WHERE rowid = 1').pluck().get() as string).split(' ')[0].replace(/[^\p{L}\p{N}]/gu, '');
    const matched = store.db.prepare('SELECT rowid FROM companies_fts WHERE companies_fts MATCH ?').pluck().all(`name:${word}`) as number[];
    await store.close();
    expect(matched).toContain(1);
    expect(code).toBe(130);
    expect(afterWeek2.fts).toBe(afterWeek2.rows);
    expect(afterWeek2.geo).toBe(afterWeek2.located);
  });
});
