// Which service a command talks to (contract §3): flag > env > profile > the local register.
import type { ProfileStore } from './profile-store.js';
import { validateBaseUrl, validateProfileName } from './keys.js';
import { UsageError } from '../errors/index.js';

export interface ConnectionFlags {
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
  local?: boolean;
}

export type Source = 'flag' | 'env' | 'profile';

export type ResolvedConnection =
  | { kind: 'remote'; baseUrl: string; apiKey?: string; profile?: string; sources: { baseUrl: Source; apiKey?: Source } }
  | { kind: 'local'; reason: 'forced' | 'unconfigured'; ignoredKey?: Source };

/**
 * `loadStore` is only called when flags and environment leave something open, so that a
 * fully specified command never reads the config file.
 */
export async function resolveConnection(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv,
  loadStore: () => Promise<ProfileStore>,
): Promise<ResolvedConnection> {
  if (flags.local) return { kind: 'local', reason: 'forced' };
  const fromFlagOrEnv = {
    baseUrl: pick(flags.baseUrl, env.BOLAG_BASE_URL),
    apiKey: pick(flags.apiKey, env.BOLAG_API_KEY),
  };
  let profileName: string | undefined;
  let profile: { base_url?: string; api_key?: string } = {};
  if (!fromFlagOrEnv.baseUrl || !fromFlagOrEnv.apiKey) {
    const store = await loadStore();
    // An empty --profile is a mistake (`--profile "$P"` with P unset), not "no profile"; an empty
    // environment variable is unset, as is usual.
    const named = flags.profile !== undefined ? flags.profile.trim() : nonEmpty(env.BOLAG_PROFILE);
    if (named !== undefined) {
      validateProfileName(named);
      if (!store.has(named)) {
        throw new UsageError(`No profile named "${named}".`, {
          flag: '--profile',
          hint: `create it with: bolag login --profile ${named}`,
        });
      }
    }
    // A default profile set by name that is not there (a typo in `config set`, a profile
    // removed by hand) is an error, as a --profile of that name is: falling through to the
    // local register would answer from another data set with only a notice to tell.
    if (named === undefined && store.hasDefaultProfileSetting() && !store.has(store.defaultProfile())) {
      throw new UsageError(`The default profile "${store.defaultProfile()}" does not exist.`, {
        hint: missingDefaultHint(store.names()),
      });
    }
    profileName = named ?? store.defaultProfile();
    profile = store.profile(profileName);
  }
  const baseUrl = fromFlagOrEnv.baseUrl ?? (profile.base_url ? { value: profile.base_url, source: 'profile' as const } : undefined);
  if (!baseUrl) {
    // A profile that holds a key but no address was meant for a service: answering from the
    // local register instead would show another data set with only a notice to tell.
    if (profileName !== undefined && profile.api_key) {
      throw new UsageError(`The profile "${profileName}" has an API key but no base_url, so it names no service.`, {
        hint: `set one with: bolag config set ${profileName}.base_url URL (or bolag login --profile ${profileName})`,
      });
    }
    const ignoredKey = fromFlagOrEnv.apiKey?.source;
    return ignoredKey === undefined ? { kind: 'local', reason: 'unconfigured' } : { kind: 'local', reason: 'unconfigured', ignoredKey };
  }
  const resolvedUrl = validateBaseUrl(baseUrl.value);
  // A profile's key goes only to the profile's service: with another --base-url (or
  // BOLAG_BASE_URL) it would be handed to whatever answers there.
  const keyFits = baseUrl.source === 'profile' || (profile.base_url !== undefined && sameUrl(profile.base_url, resolvedUrl));
  const apiKey = fromFlagOrEnv.apiKey ?? (profile.api_key && keyFits ? { value: profile.api_key, source: 'profile' as const } : undefined);
  return {
    kind: 'remote',
    baseUrl: resolvedUrl,
    apiKey: apiKey?.value,
    profile: baseUrl.source === 'profile' ? profileName : undefined,
    sources: { baseUrl: baseUrl.source, apiKey: apiKey?.source },
  };
}

function pick(flag: string | undefined, env: string | undefined): { value: string; source: Source } | undefined {
  const f = nonEmpty(flag);
  if (f !== undefined) return { value: f, source: 'flag' };
  const e = nonEmpty(env);
  if (e !== undefined) return { value: e, source: 'env' };
  return undefined;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function sameUrl(stored: string, resolved: string): boolean {
  try {
    return validateBaseUrl(stored) === resolved;
  } catch {
    return false;
  }
}

function missingDefaultHint(names: string[]): string {
  const unset = 'bolag config unset default_profile';
  if (names.length === 0) return `create it with bolag login, or remove the setting: ${unset}`;
  return `profiles: ${names.join(', ')}; choose one with bolag config set default_profile NAME, or: ${unset}`;
}
