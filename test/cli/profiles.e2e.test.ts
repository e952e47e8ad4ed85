// Profiles: bolag login (non-interactive with flags; refuses to prompt without a terminal),
// bolag config get|set|list, --profile, and the precedence flag > env > profile > local.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT, bolag, cleanEnv, jsonLines, startCliServer, type CliServer } from './helpers.js';

describe.runIf(BUILT)('profiles', () => {
  let s: CliServer;
  const home = mkdtempSync(join(tmpdir(), 'bolag-cli-profiles-'));
  const env = cleanEnv({ BOLAG_HOME: home });
  beforeAll(async () => {
    s = await startCliServer({ seedCount: 300 });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('login without a terminal and without flags refuses to prompt (exit 2)', async () => {
    const r = await bolag(['login'], { env });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toMatch(/terminal/);
  });

  it('login checks the key with a real call: a bad key is refused (exit 3) and nothing saved', async () => {
    const r = await bolag(['login', '--base-url', s.url, '--api-key', 'bk_wrong'], { env });
    expect(r.exitCode).toBe(3);
    const list = await bolag(['config', 'list'], { env });
    expect(String(list.stdout)).not.toContain('base_url');
    // No profile yet: no default named either (commands use the local register).
    expect(String(list.stdout)).toBe('');
  });

  it('login with flags saves the profile; search then uses it', async () => {
    const r = await bolag(['login', '--profile', 'test', '--base-url', s.url, '--api-key', s.key], { env });
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toMatch(/saved as profile "test" .*; commands use it unless told otherwise/);
    expect(statSync(join(home, 'config.json')).mode & 0o777).toBe(0o600);
    const get = await bolag(['config', 'get', 'base_url', '--profile', 'test'], { env });
    expect(String(get.stdout).trim()).toBe(s.url);
    // The first profile saved becomes the default.
    const search = await bolag(['search', '--limit', '2'], { env });
    expect(search.exitCode).toBe(0);
    expect(String(search.stderr)).not.toMatch(/local register/);
    expect(jsonLines(String(search.stdout))).toHaveLength(2);
  });

  it('a later login does not take the default from a profile that names a service, and says how to use it', async () => {
    const own = mkdtempSync(join(tmpdir(), 'bolag-cli-second-login-'));
    try {
      const ownEnv = cleanEnv({ BOLAG_HOME: own });
      expect((await bolag(['config', 'set', 'base_url', s.url], { env: ownEnv })).exitCode).toBe(0);
      expect((await bolag(['config', 'set', 'api_key', s.key], { env: ownEnv })).exitCode).toBe(0);
      const r = await bolag(['login', '--profile', 't1', '--base-url', 'http://127.0.0.1:1/', '--api-key', s.key], { env: ownEnv, reject: false });
      // Port 1 answers nothing: the login fails and saves nothing; against the real one it saves.
      expect(r.exitCode).not.toBe(0);
      const ok = await bolag(['login', '--profile', 't1', '--base-url', s.url, '--api-key', s.key], { env: ownEnv });
      expect(String(ok.stderr)).toMatch(/saved as profile "t1" .*; use it with --profile t1, or make it the default: bolag config set default_profile t1/);
      expect(String((await bolag(['config', 'list'], { env: ownEnv })).stdout)).toContain('default_profile=default\n');
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('config list masks the key; config set changes a value; unknown keys are usage errors', async () => {
    const list = await bolag(['config', 'list'], { env });
    expect(String(list.stdout)).toContain('default_profile=test');
    expect(String(list.stdout)).toContain(`test.base_url=${s.url}`);
    expect(String(list.stdout)).not.toContain(s.key);
    expect((await bolag(['config', 'set', 'base_url', 'not a url', '--profile', 'test'], { env })).exitCode).toBe(2);
    expect((await bolag(['config', 'get', 'colour'], { env })).exitCode).toBe(2);
    expect((await bolag(['config', 'set', 'base_url', 'http://127.0.0.1:1/api/public/v1', '--profile', 'other'], { env })).exitCode).toBe(0);
    // A key as config list prints it names its profile.
    const dotted = await bolag(['config', 'get', 'test.base_url'], { env });
    expect(dotted.exitCode).toBe(0);
    expect(String(dotted.stdout).trim()).toBe(s.url);
    expect(String((await bolag(['config', 'get', 'other.base_url'], { env })).stdout).trim()).toBe('http://127.0.0.1:1/api/public/v1');
    expect((await bolag(['config', 'get', 'test.colour'], { env })).exitCode).toBe(2);
    // Unsetting what is not there (a typo in the profile's name) is not reported as a removal.
    const none = await bolag(['config', 'unset', 'api_key', '--profile', 'tset'], { env });
    expect([none.exitCode, String(none.stderr).trim()]).toEqual([0, 'api_key was not set in profile "tset"; nothing to remove.']);
  });

  it('precedence: flag > env > profile', async () => {
    // Profile "other" points nowhere: using it fails, env and flags override it.
    const viaProfile = await bolag(['search', '--profile', 'other', '--limit', '1'], { env });
    expect(viaProfile.exitCode).toBe(1);
    const viaEnv = await bolag(['search', '--profile', 'other', '--limit', '1'], { env: { ...env, BOLAG_BASE_URL: s.url, BOLAG_API_KEY: s.key } });
    expect(viaEnv.exitCode).toBe(0);
    const viaFlag = await bolag(['search', '--base-url', s.url, '--api-key', s.key, '--limit', '1'], {
      env: { ...env, BOLAG_BASE_URL: 'http://127.0.0.1:1/api/public/v1', BOLAG_PROFILE: 'other' },
    });
    expect(viaFlag.exitCode).toBe(0);
    // The service's address as an operator types it, without the API's path.
    const root = s.url.replace(/\/api\/public\/v1$/, '');
    for (const typed of [root, `${root}/`]) {
      const viaRoot = await bolag(['search', '--base-url', typed, '--api-key', s.key, '--limit', '1', '--format', 'jsonl'], { env });
      expect(viaRoot.exitCode, String(viaRoot.stderr)).toBe(0);
      expect(String(viaRoot.stdout).trim().split('\n')).toHaveLength(1);
    }
    const unknown = await bolag(['search', '--profile', 'nope'], { env });
    expect(unknown.exitCode).toBe(2);
    expect(String(unknown.stderr)).toMatch(/No profile named "nope"/);
  });

  it('a default profile that does not exist is refused when set, and an error (not the local register) when used', async () => {
    const typo = await bolag(['config', 'set', 'default_profile', 'tset'], { env });
    expect(typo.exitCode).toBe(2);
    expect(String(typo.stderr)).toMatch(/^error: No profile named "tset"\. — profiles: other, test\n$/);
    expect(String((await bolag(['config', 'get', 'default_profile'], { env })).stdout).trim()).toBe('test');
    // Set by hand in the file (or its profile removed there): searching says so and exits 2.
    const file = join(home, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...config, default_profile: 'gone' }));
    const search = await bolag(['search', '--limit', '1'], { env });
    expect(search.exitCode).toBe(2);
    expect(String(search.stderr)).toMatch(/The default profile "gone" does not exist/);
    expect(String(search.stderr)).not.toMatch(/local register/);
    expect(String(search.stdout)).toBe('');
    expect((await bolag(['search', '--profile', 'test', '--limit', '1'], { env })).exitCode).toBe(0);
    expect((await bolag(['config', 'set', 'default_profile', 'test'], { env })).exitCode).toBe(0);
    expect((await bolag(['search', '--limit', '1'], { env })).exitCode).toBe(0);
  });

  it('config get of a profile that does not exist is a typo (exit 2); of a setting not set, exit 1', async () => {
    for (const args of [['config', 'get', 'tset.base_url'], ['config', 'get', 'base_url', '--profile', 'tset']]) {
      const r = await bolag(args, { env });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(String(r.stderr), args.join(' ')).toMatch(/^error: No profile named "tset"\. — profiles: other, test\n$/);
    }
    const unset = await bolag(['config', 'get', 'other.api_key'], { env });
    expect(unset.exitCode).toBe(1);
    expect(String(unset.stderr)).toMatch(/^error: api_key is not set in profile "other"\.\n$/);
  });

  it('a config.json that is not JSON is named, exit 1, and left as it was', async () => {
    const bad = mkdtempSync(join(tmpdir(), 'bolag-cli-bad-config-'));
    try {
      writeFileSync(join(bad, 'config.json'), '{"profiles": {');
      for (const args of [['config', 'list'], ['search', '--limit', '1']]) {
        const r = await bolag(args, { env: cleanEnv({ BOLAG_HOME: bad }) });
        expect(r.exitCode, args.join(' ')).toBe(1);
        expect(String(r.stderr).trim().split('\n'), args.join(' ')).toHaveLength(1);
        expect(String(r.stderr), args.join(' ')).toContain(`${join(bad, 'config.json')} is not valid JSON`);
      }
      expect(readFileSync(join(bad, 'config.json'), 'utf8')).toBe('{"profiles": {');
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});
