// A new register and the export files beside it are readable by their owner only: the register
// holds webhook secrets, the key that signs download links and every account's data, and a
// reader of the file could forge a link to any export (found by a security review, 2026-11-29:
// both were 0644 and their folders 0755).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DiskExportFiles } from '../../src/store/sqlite/export-files.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'bolag-file-modes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

it('a new register, its log and its folder are its owner’s only', async () => {
  const path = join(dir, 'home', 'register.db');
  const store = openSqliteStore(path);
  try {
    store.db.prepare("INSERT INTO settings (name, value) VALUES ('probe', 'x')").run();
    expect(modeOf(path)).toBe('600');
    expect(modeOf(`${path}-wal`)).toBe('600');
    expect(modeOf(join(dir, 'home'))).toBe('700');
  } finally {
    await store.close();
  }
});

it('export parts and their folders are their owner’s only', async () => {
  const files = new DiskExportFiles(join(dir, 'exports'));
  const part = await files.createPart('exp_modes', 'part-1.csv');
  await part.write(Buffer.from('id;name\r\n'));
  await part.finish();
  expect(modeOf(join(dir, 'exports', 'exp_modes', 'part-1.csv'))).toBe('600');
  expect(modeOf(join(dir, 'exports', 'exp_modes'))).toBe('700');
});
