import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { storeContract } from './store-contract.js';
import { workContract } from './work-contract.js';

const dirs: string[] = [];
const open = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bolag-store-'));
  dirs.push(dir);
  return openSqliteStore(join(dir, 'store.db'));
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
storeContract('SQLite', open);
workContract('SQLite', open);
