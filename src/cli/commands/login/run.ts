// `bolag login`: prompt (TTY only), check with GET /companies?limit=1, save the profile.
import type { LoginOptions } from './options.js';
import { validateBaseUrl, validateProfileName } from '../../config/keys.js';
import { AuthError, UsageError } from '../../errors/index.js';

const DEFAULT_BASE_URL = 'http://127.0.0.1:8080/api/public/v1';

export async function loginRun(opts: LoginOptions): Promise<void> {
  const { factory } = opts;
  const store = await factory.config();
  const name = validateProfileName(opts.profile ?? store.defaultProfile());
  const existing = store.profile(name);

  let baseUrl = opts.baseUrl;
  let apiKey = opts.apiKey;
  if (baseUrl === undefined || apiKey === undefined) {
    if (!factory.io.stdinIsTTY || !factory.io.stderrIsTTY) {
      throw new UsageError('bolag login asks its questions on a terminal only.', {
        hint: 'pass --base-url and --api-key, or use bolag config set',
      });
    }
    const prompter = await factory.prompter('bolag login');
    baseUrl ??= await prompter.input('Base URL of the service', {
      default: existing.base_url ?? factory.env.BOLAG_BASE_URL ?? DEFAULT_BASE_URL,
      validate: (v) => {
        try {
          validateBaseUrl(v);
          return true;
        } catch (e) {
          return (e as Error).message;
        }
      },
    });
    apiKey ??= await prompter.password('API key', { validate: (v) => (v.trim() ? true : 'The key must not be empty.') });
  }
  const url = validateBaseUrl(baseUrl);
  const key = apiKey.trim();
  if (key === '') throw new UsageError('The API key must not be empty.', { flag: '--api-key' });

  const client = await factory.httpClientFor(url, key);
  try {
    await client.get('/companies', { query: { limit: 1 }, retry: false, signal: factory.interrupt });
  } catch (error) {
    if (error instanceof AuthError) {
      throw new AuthError(`The service refused the key: ${error.message}`, error, { hint: 'nothing was saved' });
    }
    throw error;
  }

  // The first service logged in to becomes the default; a later login does not quietly move
  // commands without --profile from the service they used (the "default" profile, say) to this one.
  const current = store.defaultProfile();
  const becomesDefault = !store.hasDefaultProfileSetting() && current !== name && !store.profile(current).base_url;
  store.setProfile(name, { base_url: url, api_key: key });
  if (becomesDefault) store.setDefaultProfile(name);
  const isDefault = becomesDefault || store.defaultProfile() === name;
  const howToUse = isDefault ? `; commands use it unless told otherwise` : `; use it with --profile ${name}, or make it the default: bolag config set default_profile ${name}`;
  factory.io.stderr.write(`Logged in to ${url}; saved as profile "${name}" in ${store.path}${howToUse}\n`);
}
