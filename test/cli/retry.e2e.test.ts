// A rate-limited real server: the CLI waits for Retry-After and carries on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT, bolag, jsonLines, pageByHand, serverEnv, startCliServer, type CliServer } from './helpers.js';

describe.runIf(BUILT)('429 from a real server', () => {
  let s: CliServer;
  beforeAll(async () => {
    s = await startCliServer({ seedCount: 400, rateLimit: { max: 3, windowMs: 1000 } });
  }, 120_000);
  afterAll(async () => s?.close());

  it('retries after Retry-After and returns every page', async () => {
    const started = Date.now();
    const r = await bolag(['--verbose', 'search', '--all', '--limit', '50'], { env: serverEnv(s) });
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toMatch(/HTTP 429; retrying in \d+ ms/);
    const rows = jsonLines(String(r.stdout));
    // Paging by hand needs the window to be free again.
    await new Promise((res) => setTimeout(res, 1100));
    const byHand: Record<string, unknown>[] = [];
    for (const row of await pageByHandSlowly(s)) byHand.push(row);
    expect(rows.map((x) => x.id)).toEqual(byHand.map((x) => x.id));
    expect(rows.length).toBeGreaterThan(150);
    expect(Date.now() - started).toBeGreaterThan(1000);
  }, 60_000);
});

async function pageByHandSlowly(s: CliServer): Promise<Record<string, unknown>[]> {
  // 100 rows a page keeps this under the limit of 3 requests a second.
  return pageByHand(s, { limit: '100' });
}
