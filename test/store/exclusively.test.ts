// Store.exclusively across two stores on one database, as two processes have: the second waits
// for the first, is told it waits, and runs after. SQLite (a file) always; PostgreSQL with DATABASE_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../../src/store/postgres/pg-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { DATABASE_URL, dropSchema, freshSchemaUrl, PG_SKIP_REASON } from '../helpers/pg.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-exclusively-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function holdsOnce(a: Store, b: Store): Promise<void> {
  const order: string[] = [];
  let release!: () => void;
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  const first = a.exclusively('bootstrap', async () => {
    order.push('a in');
    entered();
    await new Promise<void>((r) => (release = r));
    order.push('a out');
  });
  await inside;
  let waits = 0;
  const second = b.exclusively('bootstrap', async () => void order.push('b in'), () => waits++);
  await new Promise((r) => setTimeout(r, 300));
  expect(order).toEqual(['a in']);
  expect(waits).toBe(1);
  release();
  await Promise.all([first, second]);
  expect(order).toEqual(['a in', 'a out', 'b in']);
  // Free again: a third call runs at once, without waiting.
  let again = 0;
  await a.exclusively('bootstrap', async () => undefined, () => again++);
  expect(again).toBe(0);
}

it('SQLite: a second store on the same file waits for the first', async () => {
  const path = join(dir, 'register.db');
  const a = openSqliteStore(path);
  const b = openSqliteStore(path);
  try {
    await holdsOnce(a, b);
  } finally {
    await a.close();
    await b.close();
  }
});

describe.skipIf(!DATABASE_URL)(`PostgreSQL ${DATABASE_URL ? '' : PG_SKIP_REASON}`, () => {
  it('a second store on the same schema waits for the first', async () => {
    const { url, schema } = freshSchemaUrl();
    const a = await openPgStore(url);
    const b = await openPgStore(url);
    try {
      await holdsOnce(a, b);
    } finally {
      await a.close();
      await b.close();
      await dropSchema(schema);
    }
  });
});
