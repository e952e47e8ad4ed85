// A first load's indexes built on two threads (the compiled importer: store/sqlite/side-indexes.ts,
// the SNI table, spatial and full-text index in a worker beside the B-trees) are the same as when
// one thread builds them all (the source under this runner, which has no compiled worker file):
// first loads of both sources, then a weekly update onto each register.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenData } from '../../src/import/import-open-data.js';
import { canBuildBeside } from '../../src/store/sqlite/side-indexes.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { COUNTS_FROM_TABLE_SQL } from '../../src/store/sqlite/stats/count-keys.js';
import { ensureBuilt, ROOT } from '../exports/built.js';
import { digestOf, indexAnswers } from '../helpers/index-answers.js';
import { generateWeeks, weekFiles } from '../helpers/generated-weeks.js';

const BV_ROWS = 6_000;
const SCB_ROWS = 3_600;
const dir = mkdtempSync(join(tmpdir(), 'bolag-side-indexes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files = weekFiles(dir);

/** What a register holds, as digests: rows (the import's time aside), statistics, answers of each index. */
function digests(path: string): Record<string, string> {
  const store = openSqliteStore(path);
  const db = store.db;
  const digest = digestOf(db);
  db.exec('CREATE TEMP TABLE truth (dim TEXT, value TEXT, status TEXT, n INTEGER)');
  db.exec(COUNTS_FROM_TABLE_SQL.replace('INSERT INTO company_counts', 'INSERT INTO temp.truth'));
  const out = {
    rows: digest(`SELECT ${columns(db)} FROM companies ORDER BY rowid`),
    counts: digest('SELECT dim, value, status, n FROM company_counts WHERE n != 0 ORDER BY 1, 2, 3'),
    countsTruth: digest('SELECT dim, value, status, n FROM temp.truth WHERE n != 0 ORDER BY 1, 2, 3'),
    ...indexAnswers(db),
  };
  db.close();
  return out;
}

/** Every column but updated_at (the time of each import). */
function columns(db: ReturnType<typeof openSqliteStore>['db']): string {
  const names = db.prepare("SELECT name FROM pragma_table_info('companies')").pluck().all() as string[];
  return names.filter((n) => n !== 'updated_at').join(', ');
}

describe('a first load whose indexes a worker thread helps build', () => {
  beforeAll(async () => {
    generateWeeks(files, BV_ROWS, SCB_ROWS);
    await ensureBuilt();
  });

  it('gives the register one thread gives, after each step', async () => {
    const compiled = (await import(join(ROOT, 'dist/src/store/sqlite/side-indexes.js'))) as typeof import('../../src/store/sqlite/side-indexes.js');
    const onOne = join(dir, 'one-thread.db');
    const onTwo = join(dir, 'two-threads.db');
    const steps = [
      ['bolagsverket', files.bolagsverket[0]],
      ['scb', files.scb[0]],
      ['bolagsverket', files.bolagsverket[1]],
      ['scb', files.scb[1]],
    ] as const;
    for (const [source, file] of steps) {
      const store = openSqliteStore(onOne);
      // This runner imports the TypeScript source, next to which no compiled worker file lies.
      expect(canBuildBeside(store.db)).toBe(false);
      await importOpenData(store, file, { source });
      await store.close();

      const probe = openSqliteStore(onTwo);
      expect(compiled.canBuildBeside(probe.db as never)).toBe(true);
      await probe.close();
      await execa(process.execPath, [join(ROOT, 'bin/bolag.js'), '--db', onTwo, 'db', 'import', '--source', source, file]);

      expect(digests(onTwo), `after ${source} ${file}`).toEqual(digests(onOne));
    }
    const summary = digests(onTwo);
    expect(summary.integrity).toBe('["ok"]');
    expect(summary.rtree).toBe('ok');
    expect(summary.counts).toBe(summary.countsTruth);
  }, 120_000);
});
