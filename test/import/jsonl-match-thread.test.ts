// Our JSONL is read on a thread of its own, which settles the lines equal to their stored record
// once the import holds the write lock: on SQLite against a snapshot taken then, on PostgreSQL as
// each batch reads it committed (src/import/ours/match-thread.ts). Through the compiled thread, on
// both stores: what it settles and what it leaves to the import, line by line; when each store
// says it holds the lock; and whole imports in both of the thread's modes against the oracle of the
// full comparison (the same records in another key order, which no line can match).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportRecord, SettledLines } from '../../src/store/import-types.js';
import type { Store } from '../../src/store/store.js';
import { ensureBuilt, ROOT } from '../exports/built.js';
import { DATABASE_URL, dropSchema, freshSchemaUrl } from '../helpers/pg.js';

type Compiled = {
  importFile: typeof import('../../src/import/import-file.js').importFile;
  matchAhead: typeof import('../../src/import/ours/match-ahead.js').matchAhead;
  matchingThreads: typeof import('../../src/import/ours/match-ahead.js').matchingThreads;
  openSqliteStore: typeof import('../../src/store/sqlite/sqlite-store.js').openSqliteStore;
  openPgStore: typeof import('../../src/store/postgres/pg-store.js').openPgStore;
  readImportRecords: typeof import('../../src/import/read-records.js').readImportRecords;
  planRecord: typeof import('../../src/import/plan-record.js').planRecord;
  matchesExportLine: typeof import('../../src/import/ours/export-line.js').matchesExportLine;
  CommittedRecords: typeof import('../../src/store/postgres/stored-records.js').CommittedRecords;
  seedRegister: typeof import('../../src/app/seed-register.js').seedRegister;
};

let compiled: Compiled;
let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  const load = async <T>(path: string) => (await import(join(ROOT, 'dist/src', path))) as T;
  compiled = {
    ...(await load<Pick<Compiled, 'importFile'>>('import/import-file.js')),
    ...(await load<Pick<Compiled, 'matchAhead' | 'matchingThreads'>>('import/ours/match-ahead.js')),
    ...(await load<Pick<Compiled, 'openSqliteStore'>>('store/sqlite/sqlite-store.js')),
    ...(await load<Pick<Compiled, 'openPgStore'>>('store/postgres/pg-store.js')),
    ...(await load<Pick<Compiled, 'readImportRecords'>>('import/read-records.js')),
    ...(await load<Pick<Compiled, 'planRecord'>>('import/plan-record.js')),
    ...(await load<Pick<Compiled, 'matchesExportLine'>>('import/ours/export-line.js')),
    ...(await load<Pick<Compiled, 'CommittedRecords'>>('store/postgres/stored-records.js')),
    ...(await load<Pick<Compiled, 'seedRegister'>>('app/seed-register.js')),
  };
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bolag-match-thread-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, lines: string[]) => {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};

type Kind = 'sqlite' | 'postgres';
const STORES = [
  { name: 'SQLite', kind: 'sqlite' as Kind, skip: false },
  { name: 'PostgreSQL', kind: 'postgres' as Kind, skip: !DATABASE_URL },
];

/** A register of its own: a file in the test's directory, or a fresh schema dropped on close. */
async function opened(kind: Kind, name: string): Promise<Store> {
  if (kind === 'sqlite') return compiled.openSqliteStore(join(dir, name));
  const { url, schema } = freshSchemaUrl();
  const store = await compiled.openPgStore(url);
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await dropSchema(schema);
  };
  return store;
}

async function seeded(name: string, kind: Kind = 'sqlite'): Promise<Store> {
  const store = await opened(kind, name);
  await compiled.seedRegister(store, { count: 300, seed: 'match-thread' });
  return store;
}

async function exported(store: Store): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const c of store.companies.stream({ status: null, radius_km: 10 }, { expand: ['latest_financials'] })) out.push(c as unknown as Record<string, unknown>);
  return out;
}

/** The same record with org_nr first: no export head, so never matched, always compared in full. */
const reordered = (c: Record<string, unknown>) => JSON.stringify({ org_nr: c.org_nr, ...c });

async function eventsOf(store: Store) {
  return (await store.outbox.readAfter(0, 10_000)).map(({ event, subject }) => ({ type: event.type, data: event.data, subject }));
}

const strip = (cs: Record<string, unknown>[]) => cs.map(({ updated_at: _u, ...c }) => c);

const registerOf = (store: Store) => (store.kind === 'sqlite' ? { dbPath: store.location.dbPath! } : { databaseUrl: store.location.databaseUrl! });

/** What the thread hands over for a file, with the lock taken (or not) before the first batch. */
async function handedOver(store: Store, path: string, opts: { locked: boolean; batchSize: number }) {
  const ahead = compiled.matchAhead(path, registerOf(store), { batchSize: opts.batchSize, mode: 'always' });
  if (opts.locked) ahead.locked();
  let settled = 0;
  const passed: { line: number; text: string }[] = [];
  try {
    for await (const item of ahead.records) {
      if ((item as SettledLines).settled === true) settled += item.length;
      else for (const r of item as ImportRecord[]) passed.push({ line: r.line, text: r.text! });
    }
  } finally {
    await ahead.close();
  }
  return { settled, passed };
}

describe.each(STORES)('the matching thread on $name, line by line', ({ kind, skip }) => {
  it.skipIf(skip)('settles the lines equal to their stored record and hands over every other, in order', async () => {
    const store = await seeded('a.db', kind);
    try {
      const records = await exported(store);
      const [a, b] = records;
      const lines = records.slice(0, 40).map((r) => JSON.stringify(r));
      // 5: changed; 9: a's line again after a changed one (its company is no longer the snapshot's);
      // 12: b's unchanged line again (settled the first time, so nothing changed it: handed over
      // all the same, as the thread knows only that the org nr came before); 15: an export head
      // whose line names another org nr later (JSON takes the last); 20: not the export's shape.
      lines[5] = JSON.stringify({ ...records[5], name: 'Ändrat Namn AB' });
      lines[0] = JSON.stringify({ ...a, name: 'Tillfälligt AB' });
      lines[9] = JSON.stringify(a);
      lines[12] = JSON.stringify(b);
      lines[15] = `${JSON.stringify(records[15]).slice(0, -1)},"org_nr":${JSON.stringify(records[16].org_nr)}}`;
      lines[20] = reordered(records[20]);
      const path = write('mixed.jsonl', ['', ...lines]);
      const { settled, passed } = await handedOver(store, path, { locked: true, batchSize: 7 });
      // Line numbers count the empty first line.
      const expected = [0, 5, 9, 12, 15, 16, 20].map((i) => ({ line: i + 2, text: lines[i] }));
      expect(passed).toEqual(expected);
      expect(settled).toBe(40 - expected.length);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('settles nothing before the import holds the lock, and hands over a line that is not JSON', async () => {
    const store = await seeded('b.db', kind);
    try {
      const lines = (await exported(store)).slice(0, 30).map((r) => JSON.stringify(r));
      const path = write('same.jsonl', lines);
      expect(await handedOver(store, path, { locked: false, batchSize: 4 })).toEqual({ settled: 0, passed: lines.map((text, i) => ({ line: i + 1, text })) });
      // Handed over for the import to stop at; whatever the thread settles after it is never counted.
      lines[10] = `${lines[10].slice(0, 80)} not json`;
      const broken = await handedOver(store, write('broken.jsonl', lines), { locked: true, batchSize: 4 });
      expect(broken.passed.map((p) => p.line)).toEqual([11]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('is told once an all-or-nothing import holds the lock, before its first batch is compared; never batch by batch', async () => {
    const store = await seeded('l.db', kind);
    try {
      const path = write('l.jsonl', (await exported(store)).slice(0, 45).map((r) => JSON.stringify(r)));
      for (const atomic of [true, false]) {
        let batches = 0;
        const locked: number[] = [];
        let comparedBeforeLock = 0;
        const result = await store.companies.importRecords(compiled.readImportRecords(path), compiled.planRecord, {
          atomic,
          batchSize: 10,
          matchesStored: (record, existing) => {
            if (locked.length === 0) comparedBeforeLock++;
            return compiled.matchesExportLine(record, existing);
          },
          onLocked: () => locked.push(batches),
          onBatch: () => batches++,
        });
        expect(result).toMatchObject({ created: 0, updated: 0, unchanged: 45 });
        expect({ atomic, locked, comparedBeforeLock }).toEqual({ atomic, locked: atomic ? [0] : [], comparedBeforeLock: atomic ? 0 : 45 });
      }
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)('ends with the import, whichever way it ends', async () => {
    const store = await seeded('c.db', kind);
    try {
      const lines = (await exported(store)).map((r) => JSON.stringify(r));
      await compiled.importFile(store, write('ok.jsonl', lines), { batchSize: 10 });
      await expect.poll(() => compiled.matchingThreads(), { timeout: 5000 }).toBe(0);
      const bad = [...lines.slice(0, 50), 'not json', ...lines.slice(50)];
      await expect(compiled.importFile(store, write('bad.jsonl', bad), { batchSize: 10 })).rejects.toThrow(/^line 51: not valid JSON/);
      await expect.poll(() => compiled.matchingThreads(), { timeout: 5000 }).toBe(0);
      // Stopped before reading its file to the end (the consumer gives up after one batch).
      const ahead = compiled.matchAhead(write('long.jsonl', lines), registerOf(store), { batchSize: 5 });
      await ahead.records.next();
      await ahead.records.return(undefined);
      await expect.poll(() => compiled.matchingThreads(), { timeout: 5000 }).toBe(0);
    } finally {
      await store.close();
    }
  });
});

const MODES = (['always', 'balanced'] as const).flatMap((matchMode) => STORES.map((store) => ({ ...store, matchMode })));

describe.each(MODES)('whole imports through the thread on $name ($matchMode)', ({ kind, skip, matchMode }) => {
  let fast: Store;
  let full: Store;

  beforeEach(async (context) => {
    if (skip) return context.skip();
    fast = await seeded('fast.db', kind);
    full = await seeded('full.db', kind);
    return async () => {
      await fast.close();
      await full.close();
    };
  });

  /** Imports the lines into `fast` through the thread and into `full` reordered; both must agree. */
  async function importBoth(records: Record<string, unknown>[], raw: (string | null)[] = []) {
    const result = await compiled.importFile(fast, write('fast.jsonl', records.map((r, i) => raw[i] ?? JSON.stringify(r))), { batchSize: 16, matchMode });
    const oracle = await compiled.importFile(full, write('full.jsonl', records.map(reordered)), { batchSize: 16 });
    expect(result).toEqual(oracle);
    expect(await eventsOf(fast)).toEqual(await eventsOf(full));
    expect(strip(await exported(fast))).toEqual(strip(await exported(full)));
    return result;
  }

  it('re-importing the export changes nothing', async () => {
    expect(await importBoth(await exported(fast))).toMatchObject({ created: 0, updated: 0, unchanged: 300 });
  });

  it('finds every change, repeated org nrs in order, new companies and a hidden second org nr', async () => {
    const records = await exported(fast);
    const fields = ['name', 'status', 'address', 'sni_codes', 'revenue', 'f_skatt', 'location', 'latest_financials'];
    const lines: Record<string, unknown>[] = records.map((r, i) => {
      if (i % 5 !== 1) return r;
      const field = fields[i % fields.length];
      const other = records[(i * 7 + 13) % records.length];
      return { ...r, [field]: typeof r[field] === 'boolean' ? !r[field] : other[field] };
    });
    // A company changed, then its stored record again in a later batch, then changed once more.
    const a = records[40];
    lines.push({ ...a, name: 'Mellanspel AB' }, ...records.slice(100, 140), a, ...records.slice(140, 170), { ...a, name: 'Slutspel AB' }, a);
    // New companies (no id), one of them twice.
    const fresh = { ...records[3], id: undefined, org_nr: '556036-0793', name: 'Nytt Bolag AB' };
    lines.push(fresh, { ...fresh, name: 'Nytt Bolag Igen AB' });
    // An export head hiding a later org nr of another company.
    const twice = `${JSON.stringify(records[7]).slice(0, -1)},"org_nr":${JSON.stringify(records[8].org_nr)}}`;
    lines.push(JSON.parse(twice) as Record<string, unknown>, records[8]);
    const result = await importBoth(lines, lines.map((_, i) => (i === lines.length - 2 ? twice : null)));
    expect(result.updated).toBeGreaterThan(50);
    expect(result.created).toBe(1);
    expect((await fast.companies.get(a.org_nr as string))!.name).toBe(a.name);
  });

  it('stops at the first unreadable line, as without the thread', async () => {
    const records = (await exported(fast)).map((r) => JSON.stringify(r));
    const lines = [...records.slice(0, 70), JSON.stringify({ ...JSON.parse(records[70]), org_nr: '123' }), `${records[71].slice(0, 60)} not json`, '[1]'];
    await expect(compiled.importFile(fast, write('bad.jsonl', lines), { batchSize: 16, matchMode })).rejects.toThrow(/^line 72: not valid JSON/);
    expect(await eventsOf(fast)).toEqual([]);
  });
});

describe('the thread on PostgreSQL, with no database to read', () => {
  it('settles nothing and hands every line over, for the import to read the register itself', async () => {
    const store = await seeded('u.db');
    try {
      const lines = (await exported(store)).slice(0, 12).map((r) => JSON.stringify(r));
      const ahead = compiled.matchAhead(write('lost.jsonl', lines), { databaseUrl: 'postgres://postgres@127.0.0.1:1/test' }, { batchSize: 4, mode: 'always' });
      ahead.locked();
      let settled = 0;
      const passed: number[] = [];
      try {
        for await (const item of ahead.records) {
          if ((item as SettledLines).settled === true) settled += item.length;
          else passed.push(...(item as ImportRecord[]).map((r) => r.line));
        }
      } finally {
        await ahead.close();
      }
      expect({ settled, passed }).toEqual({ settled: 0, passed: lines.map((_, i) => i + 1) });
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!DATABASE_URL)('the thread on PostgreSQL, behind a lock queued behind the import', () => {
  it('gives its read up within seconds instead of waiting for a session that waits for the import', { timeout: 20_000 }, async () => {
    const store = await seeded('q', 'postgres');
    const url = store.location.databaseUrl!;
    const { org_nr } = (await exported(store))[0];
    const key = String(org_nr).replace('-', '');
    const pg = (await import('pg')).default;
    const options = `-c search_path=${new URL(url).searchParams.get('schema')},public`;
    const base = new URL(url);
    base.searchParams.delete('schema');
    const importing = new pg.Client({ connectionString: base.toString(), options });
    const migrating = new pg.Client({ connectionString: base.toString(), options });
    const committed = new compiled.CommittedRecords(url);
    await importing.connect();
    await migrating.connect();
    try {
      // The import's transaction holds its locks on companies; a migration's ALTER queues behind it.
      await importing.query('BEGIN');
      await importing.query('SELECT rowid FROM companies WHERE org_nr = $1 FOR UPDATE', [key]);
      expect((await committed.records([key])).size).toBe(1);
      await migrating.query('BEGIN');
      const queued = migrating.query('LOCK TABLE companies IN ACCESS EXCLUSIVE MODE');
      await expect
        .poll(async () => (await importing.query("SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND mode = 'AccessExclusiveLock' AND relation = 'companies'::regclass")).rows[0].n, { timeout: 5000 })
        .toBe(1);
      const started = Date.now();
      await expect(committed.records([key])).rejects.toThrow(/lock timeout/);
      expect(Date.now() - started).toBeLessThan(5000);
      await importing.query('COMMIT');
      await queued;
      await migrating.query('COMMIT');
    } finally {
      await committed.close();
      await importing.end();
      await migrating.end();
      await store.close();
    }
  });
});

describe('the thread elsewhere', () => {
  it('is not used for CSV', async () => {
    const store = await seeded('csv.db');
    try {
      const before = compiled.matchingThreads();
      const csv = (await exported(store)).slice(0, 3);
      const path = write('one.csv', ['org_nr;name', ...csv.map((c) => `${c.org_nr as string};${c.name as string}`)]);
      const spy = setInterval(() => expect(compiled.matchingThreads()).toBe(before), 1);
      try {
        await compiled.importFile(store, path).catch(() => undefined);
      } finally {
        clearInterval(spy);
      }
      expect(compiled.matchingThreads()).toBe(before);
    } finally {
      await store.close();
    }
  });
});
