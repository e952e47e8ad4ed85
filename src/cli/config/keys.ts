// The settings a profile holds, how each is checked, and how it is shown.
import { UsageError } from '../errors/index.js';
import { withApiPrefix } from '../../core/public-url.js';

export const PROFILE_KEYS = ['base_url', 'api_key'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
export type Profile = Partial<Record<ProfileKey, string>>;

/** Settings outside any profile. */
export const GLOBAL_KEYS = ['default_profile'] as const;
export type GlobalKey = (typeof GLOBAL_KEYS)[number];

export const CONFIG_KEYS = [...PROFILE_KEYS, ...GLOBAL_KEYS] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}

export function isProfileKey(key: string): key is ProfileKey {
  return (PROFILE_KEYS as readonly string[]).includes(key);
}

/** Accepts base-url and base_url alike. */
export function parseConfigKey(input: string): ConfigKey {
  const key = input.trim().toLowerCase().replaceAll('-', '_');
  if (!isConfigKey(key)) throw new UsageError(`Unknown setting "${input}"; expected one of ${CONFIG_KEYS.join(', ')}.`);
  return key;
}

export function validateBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new UsageError(`Invalid base URL "${value}"; expected something like https://api.example.se/api/public/v1.`, { flag: '--base-url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`Invalid base URL "${value}"; it must start with http:// or https://.`, { flag: '--base-url' });
  }
  // Paths are appended to the base URL: after a query or a fragment they would be part of it.
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(value)) {
    throw new UsageError(`Invalid base URL "${value}"; give it without a query string or fragment ("?…", "#…").`, { flag: '--base-url' });
  }
  // The spec's base URL ends in the version prefix; typed as the service's address (the root,
  // or a mount point behind a proxy, as for `serve --public-url`), the prefix is added.
  url.pathname = withApiPrefix(url.pathname);
  return url.toString().replace(/\/+$/, '');
}

export function validateProfileName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name)) {
    throw new UsageError(`Invalid profile name "${name}"; use letters, digits, - and _.`, { flag: '--profile' });
  }
  return name;
}

export function validateValue(key: ConfigKey, value: string): string {
  if (key === 'base_url') return validateBaseUrl(value);
  if (key === 'default_profile') return validateProfileName(value);
  if (value.trim() === '') throw new UsageError(`The ${key} must not be empty.`);
  return value.trim();
}

/** An API key shown in a listing: enough to recognise, not enough to use. */
export function maskSecret(value: string): string {
  if (value.length <= 10) return '•'.repeat(value.length);
  return `${value.slice(0, 6)}…${value.slice(-4)}`;
}
