// A rate-limited real server: the CLI waits for Retry-After and carries on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT, bolag, jsonLines, serverEnv, startCliServer, type CliServer } from './helpers.js';

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
    const byHand = await pageByHandSlowly(s);
    expect(rows.map((x) => x.id)).toEqual(byHand.map((x) => x.id));
    expect(rows.length).toBeGreaterThan(150);
    expect(Date.now() - started).toBeGreaterThan(1000);
  }, 60_000);

  it('says why it pauses on a 429 without --verbose, and nothing with --quiet', async () => {
    const r = await bolag(['search', '--all', '--limit', '50', '--format', 'jsonl'], { env: serverEnv(s) });
    expect(r.exitCode).toBe(0);
    const notices = String(r.stderr).split('\n').filter((l) => l.includes('HTTP 429'));
    expect(notices.length).toBeGreaterThan(0);
    for (const n of notices) expect(n).toMatch(/^HTTP 429: Rate limit of 3 requests per 1 s exceeded; retry after \d+ s\. Going on in \d+ s…$/);
    const quiet = await bolag(['--quiet', 'search', '--all', '--limit', '50', '--format', 'jsonl'], { env: serverEnv(s) });
    expect(quiet.exitCode).toBe(0);
    expect(String(quiet.stderr)).toBe('');
    expect(jsonLines(String(quiet.stdout)).length).toBe(jsonLines(String(r.stdout)).length);
  }, 60_000);
});

/** Pages by hand with fetch, waiting out each 429 as its Retry-After says. */
async function pageByHandSlowly(s: CliServer): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (;;) {
    const qs = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${s.url}/companies?${qs}`, { headers: { authorization: `Bearer ${s.key}` } });
    if (res.status === 429) {
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000));
      continue;
    }
    const body = (await res.json()) as { data: Record<string, unknown>[]; pagination: { has_more: boolean; next_cursor?: string } };
    rows.push(...body.data);
    if (!body.pagination.has_more) return rows;
    cursor = body.pagination.next_cursor;
  }
}
