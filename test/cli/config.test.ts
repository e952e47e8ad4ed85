// Profiles on disk and the precedence flag > env > profile > local register.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openProfileStore, type ProfileStore } from '../../src/cli/config/profile-store.js';
import { resolveConnection } from '../../src/cli/config/resolve.js';
import { maskSecret, parseConfigKey, validateBaseUrl } from '../../src/cli/config/keys.js';
import { UsageError } from '../../src/cli/errors/index.js';

const dirs: string[] = [];
async function store(): Promise<ProfileStore> {
  const dir = mkdtempSync(join(tmpdir(), 'bolag-cli-config-'));
  dirs.push(dir);
  return openProfileStore(dir);
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('profiles', () => {
  it('stores settings per profile and a default profile', async () => {
    const s = await store();
    expect(s.defaultProfile()).toBe('default');
    s.setProfile('prod', { base_url: 'https://api.example.se/api/public/v1', api_key: 'bk_1' });
    s.set('dev.local', 'base_url', 'http://127.0.0.1:8080/api/public/v1');
    s.setDefaultProfile('prod');
    const again = await openProfileStore(dirs[0]);
    expect(again.defaultProfile()).toBe('prod');
    expect(again.profile('prod')).toEqual({ base_url: 'https://api.example.se/api/public/v1', api_key: 'bk_1' });
    expect(again.names()).toEqual(['dev.local', 'prod']);
    again.unset('prod', 'api_key');
    expect(again.profile('prod')).toEqual({ base_url: 'https://api.example.se/api/public/v1' });
  });

  it('checks keys and values', () => {
    expect(parseConfigKey('base-url')).toBe('base_url');
    expect(() => parseConfigKey('colour')).toThrow(UsageError);
    expect(validateBaseUrl('https://x.se/api/public/v1/')).toBe('https://x.se/api/public/v1');
    // Typed as the service's address, the root or a mount point: the spec's prefix is added.
    expect(validateBaseUrl('https://x.se')).toBe('https://x.se/api/public/v1');
    expect(validateBaseUrl(' https://x.se/ ')).toBe('https://x.se/api/public/v1');
    expect(validateBaseUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/api/public/v1');
    expect(validateBaseUrl('https://example.se/bolag/')).toBe('https://example.se/bolag/api/public/v1');
    for (const bad of ['https://x.se?a=1', 'https://x.se/api/public/v1?', 'https://x.se/#top']) expect(() => validateBaseUrl(bad)).toThrow(/query string or fragment/);
    expect(() => validateBaseUrl('ftp://x.se')).toThrow(UsageError);
    expect(maskSecret('bk_abcdefghijklmnop')).toBe('bk_abc…mnop');
  });
});

describe('resolveConnection', () => {
  const A = 'https://a.example.se/api/public/v1';
  const B = 'https://b.example.se/api/public/v1';
  const C = 'https://c.example.se/api/public/v1';

  it('takes the flag over the env over the profile, field by field', async () => {
    const s = await store();
    s.setProfile('default', { base_url: C, api_key: 'profile-key' });
    const load = async () => s;
    expect(await resolveConnection({ baseUrl: A, apiKey: 'flag-key' }, { BOLAG_BASE_URL: B, BOLAG_API_KEY: 'env-key' }, load)).toMatchObject({
      kind: 'remote',
      baseUrl: A,
      apiKey: 'flag-key',
    });
    expect(await resolveConnection({}, { BOLAG_BASE_URL: B, BOLAG_API_KEY: 'env-key' }, load)).toMatchObject({ baseUrl: B, apiKey: 'env-key' });
    expect(await resolveConnection({}, { BOLAG_API_KEY: 'env-key' }, load)).toMatchObject({ baseUrl: C, apiKey: 'env-key', profile: 'default' });
    expect(await resolveConnection({}, {}, load)).toMatchObject({ baseUrl: C, apiKey: 'profile-key' });
  });

  it("sends a profile's key only to the profile's own service", async () => {
    const s = await store();
    s.setProfile('default', { base_url: C, api_key: 'profile-key' });
    const load = async () => s;
    // Another service named by flag or env: the profile's key is not handed to it.
    const other = await resolveConnection({ baseUrl: A }, {}, load);
    expect(other).toMatchObject({ kind: 'remote', baseUrl: A });
    expect(other.kind === 'remote' && other.apiKey).toBeUndefined();
    const otherByEnv = await resolveConnection({}, { BOLAG_BASE_URL: B }, load);
    expect(otherByEnv.kind === 'remote' && otherByEnv.apiKey).toBeUndefined();
    // The profile's own service, spelled as typed (root, trailing slash): its key.
    expect(await resolveConnection({ baseUrl: 'https://c.example.se/' }, {}, load)).toMatchObject({ baseUrl: C, apiKey: 'profile-key' });
  });

  it('does not read the config file when flags and env say everything', async () => {
    const r = await resolveConnection({ baseUrl: A }, { BOLAG_API_KEY: 'k' }, async () => {
      throw new Error('config read');
    });
    expect(r).toMatchObject({ kind: 'remote', baseUrl: A });
  });

  it('picks the profile by flag, then BOLAG_PROFILE, then the default', async () => {
    const s = await store();
    s.setProfile('one', { base_url: A });
    s.setProfile('two', { base_url: B });
    s.setDefaultProfile('one');
    const load = async () => s;
    expect(await resolveConnection({}, {}, load)).toMatchObject({ baseUrl: A });
    expect(await resolveConnection({}, { BOLAG_PROFILE: 'two' }, load)).toMatchObject({ baseUrl: B });
    expect(await resolveConnection({ profile: 'one' }, { BOLAG_PROFILE: 'two' }, load)).toMatchObject({ baseUrl: A });
    await expect(resolveConnection({ profile: 'three' }, {}, load)).rejects.toThrow(/No profile named "three"/);
  });

  it('falls back to the local register when nothing is configured, and --local forces it', async () => {
    const s = await store();
    expect(await resolveConnection({}, {}, async () => s)).toEqual({ kind: 'local', reason: 'unconfigured' });
    expect(await resolveConnection({ local: true, baseUrl: A }, { BOLAG_BASE_URL: B }, async () => s)).toEqual({ kind: 'local', reason: 'forced' });
    // A key given with no address is not used, and the caller is told which one (it warns).
    expect(await resolveConnection({ apiKey: 'k' }, {}, async () => s)).toEqual({ kind: 'local', reason: 'unconfigured', ignoredKey: 'flag' });
    expect(await resolveConnection({}, { BOLAG_API_KEY: 'k' }, async () => s)).toEqual({ kind: 'local', reason: 'unconfigured', ignoredKey: 'env' });
  });

  it('refuses an empty --profile, and a profile with a key but no base_url, rather than answer from the local register', async () => {
    const s = await store();
    s.setProfile('keyonly', { api_key: 'k' });
    const load = async () => s;
    await expect(resolveConnection({ profile: '' }, {}, load)).rejects.toThrow(/Invalid profile name ""/);
    // An empty environment variable is unset, as usual.
    expect(await resolveConnection({}, { BOLAG_PROFILE: '' }, load)).toEqual({ kind: 'local', reason: 'unconfigured' });
    await expect(resolveConnection({ profile: 'keyonly' }, {}, load)).rejects.toThrow(/"keyonly" has an API key but no base_url/);
    s.setDefaultProfile('keyonly');
    await expect(resolveConnection({}, {}, load)).rejects.toThrow(/"keyonly" has an API key but no base_url/);
    // With an address from a flag, the profile's key is not sent there, and nothing is refused.
    expect(await resolveConnection({ baseUrl: A }, {}, load)).toMatchObject({ kind: 'remote', baseUrl: A });
  });
});
