// Profiles on disk, with conf, in configDir() (BOLAG_HOME isolates them). The file is
// readable by its owner only, since it holds API keys.
import type Conf from 'conf';
import { join } from 'node:path';
import { configDir } from '../../local/paths.js';
import { CliError } from '../errors/index.js';
import type { Profile, ProfileKey } from './keys.js';

interface StoreShape {
  default_profile?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';

export class ProfileStore {
  constructor(private readonly conf: Conf<StoreShape>) {}

  get path(): string {
    return this.conf.path;
  }

  /** The profile used when neither --profile nor BOLAG_PROFILE names one. */
  defaultProfile(): string {
    return this.conf.get('default_profile') ?? DEFAULT_PROFILE;
  }

  setDefaultProfile(name: string): void {
    this.conf.set('default_profile', name);
  }

  clearDefaultProfile(): void {
    this.conf.delete('default_profile');
  }

  hasDefaultProfileSetting(): boolean {
    return this.conf.get('default_profile') !== undefined;
  }

  names(): string[] {
    return Object.keys(this.profiles()).sort();
  }

  has(name: string): boolean {
    return Object.hasOwn(this.profiles(), name);
  }

  profile(name: string): Profile {
    return { ...(this.profiles()[name] ?? {}) };
  }

  set(name: string, key: ProfileKey, value: string): void {
    this.conf.set('profiles', { ...this.profiles(), [name]: { ...this.profile(name), [key]: value } });
  }

  setProfile(name: string, profile: Profile): void {
    this.conf.set('profiles', { ...this.profiles(), [name]: { ...this.profile(name), ...profile } });
  }

  unset(name: string, key: ProfileKey): void {
    const next = this.profile(name);
    delete next[key];
    this.conf.set('profiles', { ...this.profiles(), [name]: next });
  }

  private profiles(): Record<string, Profile> {
    return this.conf.get('profiles') ?? {};
  }
}

export async function openProfileStore(dir: string = configDir()): Promise<ProfileStore> {
  const { default: ConfClass } = await import('conf');
  try {
    const conf = new ConfClass<StoreShape>({
      cwd: dir,
      configName: 'config',
      accessPropertiesByDotNotation: false,
      configFileMode: 0o600,
      defaults: { profiles: {} },
    });
    return new ProfileStore(conf);
  } catch (error) {
    // conf says only what JSON.parse said: name the file, so that it can be mended.
    if (error instanceof SyntaxError) throw new CliError(`${join(dir, 'config.json')} is not valid JSON (${error.message}).`, { hint: 'mend it, or move it away to start with no profiles' });
    throw error;
  }
}
