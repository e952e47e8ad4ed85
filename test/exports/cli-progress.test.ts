// Waiting on a terminal shows an ora spinner on stderr with the status and the rows so far, and
// ends with the paths on stdout; on a pipe it is quiet. Runs the command in-process over test
// streams (src/cli/io.ts testIO) against a real server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExportCommand } from '../../src/cli/commands/export.js';
import { createFactory } from '../../src/cli/factory.js';
import { testIO, type TestIO } from '../../src/cli/io.js';
import { createExportWorker } from '../../src/exports/worker.js';
import { WORKERS } from '../../src/server/workers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let work: string;

beforeAll(async () => {
  // A slowed export worker, so that the export is seen queued and running for a while.
  WORKERS[WORKERS.indexOf(createExportWorker)] = (ctx) =>
    createExportWorker(ctx, { batchRows: 200, afterBatch: () => new Promise((r) => setTimeout(r, 60)) });
  t = await startTestServer({ exportPartRows: 1000 });
  work = mkdtempSync(join(tmpdir(), 'bolag-export-progress-'));
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

async function run(io: TestIO, args: string[]): Promise<void> {
  const f = createFactory({ io, env: { BOLAG_HOME: join(work, 'home') }, globals: () => ({ baseUrl: t.url, apiKey: t.key }) });
  try {
    await buildExportCommand(f).exitOverride().parseAsync(args, { from: 'user' });
  } finally {
    await f.dispose();
  }
}

describe('bolag export create --wait', () => {
  it('shows status and rows on a terminal, then the paths', async () => {
    const io = testIO({ tty: true });
    const out = join(work, 'tty');
    await run(io, ['create', '--status', 'all', '--no-exclude-advertising-blocked', '--wait', '--out', out]);
    const err = io.err().replace(/\u001b\[[0-9;]*m/g, '');
    expect(err).toMatch(/⠋ Export exp_[\w-]+: queued \(~3[\s\u00a0]000 rows\)/);
    expect(err).toMatch(/Export exp_[\w-]+: running, [1-9][\d\s\u00a0]* of ~3[\s\u00a0]000 rows/);
    expect(err).toMatch(/✔ Export exp_[\w-]+: completed, 3[\s\u00a0]000 rows in 3 files/);
    expect(err).toMatch(/Downloaded 3 files .*sha256 verified/);
    const paths = io.out().split('\n').filter(Boolean);
    expect(paths).toHaveLength(3);
    for (const p of paths) expect(p.startsWith(out)).toBe(true);
  }, 60_000);

  it('is quiet on a pipe: only the paths', async () => {
    const io = testIO({ tty: false });
    await run(io, ['create', '--county', '14', '--wait', '--out', join(work, 'pipe')]);
    expect(io.err()).toBe('');
    expect(io.out().split('\n').filter(Boolean)).toHaveLength(1);
  }, 60_000);
});
