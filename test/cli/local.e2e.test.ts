// Local-register mode: no service configured, the CLI starts the server in-process over the
// embedded database under BOLAG_HOME (creating it on first use) and says so once on stderr.
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT, bolag, cleanEnv, jsonLines } from './helpers.js';

describe.runIf(BUILT)('the local register', () => {
  const home = mkdtempSync(join(tmpdir(), 'bolag-cli-local-'));
  const env = cleanEnv({ BOLAG_HOME: home, BOLAG_SEED_COUNT: '600' });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('is created on first use and used when nothing is configured', async () => {
    const r = await bolag(['search', '--limit', '3'], { env });
    expect(String(r.stderr)).toMatch(/Using the local register \(.*register\.db\)/);
    expect(r.exitCode).toBe(0);
    expect(jsonLines(String(r.stdout))).toHaveLength(3);
    expect(existsSync(join(home, 'register.db'))).toBe(true);
    expect(String(r.stderr).match(/Using the local register/g)).toHaveLength(1);
  }, 120_000);

  it('is reused on the next run, and company works over it too', async () => {
    const first = jsonLines(String((await bolag(['search', '--limit', '1'], { env })).stdout))[0] as { id: string };
    const r = await bolag(['company', first.id], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout)).id).toBe(first.id);
  }, 60_000);

  it('--local wins over a configured service', async () => {
    const r = await bolag(['search', '--local', '--limit', '2'], {
      env: { ...env, BOLAG_BASE_URL: 'http://127.0.0.1:1/api/public/v1', BOLAG_API_KEY: 'k' },
    });
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toMatch(/Using the local register/);
    expect(jsonLines(String(r.stdout))).toHaveLength(2);
  }, 60_000);

  it('--quiet keeps the notice off stderr', async () => {
    const r = await bolag(['search', '--quiet', '--limit', '1'], { env });
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toBe('');
  }, 60_000);

  it("export get says that a download_url of the local register dies with the command, and how to get the files", async () => {
    const created = await bolag(['export', 'create', '--county', '01', '--format', 'jsonl', '--wait', '--out', join(home, 'files')], { env });
    expect(created.exitCode, String(created.stderr)).toBe(0);
    const id = /(exp_[\w-]+)/.exec(String(created.stdout))![1];
    const r = await bolag(['export', 'get', id, '--format', 'json'], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout)).download_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(String(r.stderr)).toContain(`The download_url works only while a bolag command serves the local register; to get the files: bolag export download ${id}`);
  }, 60_000);

  it('webhooks create of an http:// URL says where it is taken: a server started with --allow-insecure-webhooks (found 2026-11-29)', async () => {
    const r = await bolag(['webhooks', 'create', '--url', 'http://127.0.0.1:9/hook', '--events', 'company.created'], { env });
    expect(r.exitCode).toBe(2);
    const lines = String(r.stderr).trim().split('\n');
    expect(lines.at(-1)).toMatch(/^error: Invalid url: it must use https\. .* — the local register takes https only; a bolag serve started with --allow-insecure-webhooks takes http:\/\/: create it through that server/);
    expect(String(r.stdout)).toBe('');
  }, 60_000);

  it('--db names another register, created there with its own key', async () => {
    const db = join(home, 'elsewhere', 'custom.db');
    const r = await bolag(['search', '--db', db, '--limit', '2'], { env });
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toContain(`Using the local register (${db})`);
    expect(jsonLines(String(r.stdout))).toHaveLength(2);
    expect(existsSync(db)).toBe(true);
    expect(existsSync(`${db}.local-key`)).toBe(true);
    const again = await bolag(['search', '--db', db, '--count'], { env });
    expect(again.exitCode).toBe(0);
    expect(Number(String(again.stdout).trim())).toBeGreaterThan(0);
  }, 120_000);
});
