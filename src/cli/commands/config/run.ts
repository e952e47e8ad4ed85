// `bolag config …`: reads and writes the profile store.
import type { ConfigOptions } from './options.js';
import { isProfileKey, maskSecret, parseConfigKey, validateProfileName, validateValue } from '../../config/keys.js';
import { CliError, UsageError } from '../../errors/index.js';
import { OutputSink } from '../../output/sink.js';

export async function configRun(opts: ConfigOptions): Promise<void> {
  const { factory } = opts;
  const store = await factory.config();
  if (opts.action === 'profiles') {
    // Whatever --profile or BOLAG_PROFILE says: completion runs this while one is being typed.
    const names = store.names();
    if (names.length > 0) await new OutputSink(factory.io.stdout).write(names.join('\n') + '\n');
    return;
  }
  const g = factory.globals();
  // A key as `config list` prints it (`local.base_url`) names its profile too.
  const dotted = /^([^.]+)\.(.+)$/.exec(opts.key ?? '');
  const named = dotted?.[1] ?? g.profile ?? factory.env.BOLAG_PROFILE;
  const profile = validateProfileName(named ?? store.defaultProfile());
  if (dotted) opts = { ...opts, key: dotted[2] };
  if (dotted && !isProfileKey(parseConfigKey(dotted[2]))) throw new UsageError(`${dotted[2]} is not a setting of a profile; give it without "${dotted[1]}.".`);
  const out = new OutputSink(factory.io.stdout);

  switch (opts.action) {
    case 'get': {
      const key = parseConfigKey(opts.key ?? '');
      // A profile named that does not exist is a typo (exit 2), as --profile is everywhere else.
      if (isProfileKey(key) && named !== undefined && !store.has(profile)) {
        const names = store.names();
        throw new UsageError(`No profile named "${profile}".`, { hint: names.length > 0 ? `profiles: ${names.join(', ')}` : undefined });
      }
      const value = isProfileKey(key) ? store.profile(profile)[key] : store.defaultProfile();
      if (value === undefined) throw new CliError(`${key} is not set in profile "${profile}".`);
      await out.write(`${value}\n`);
      return;
    }
    case 'set': {
      const key = parseConfigKey(opts.key ?? '');
      const value = validateValue(key, opts.value ?? '');
      if (!isProfileKey(key) && !store.has(value)) {
        const names = store.names();
        throw new UsageError(`No profile named "${value}".`, {
          hint: names.length > 0 ? `profiles: ${names.join(', ')}` : `create it with: bolag login --profile ${value}`,
        });
      }
      if (isProfileKey(key)) store.set(profile, key, value);
      else store.setDefaultProfile(value);
      factory.notice(isProfileKey(key) ? `Set ${key} in profile "${profile}".` : `The default profile is now "${value}".`);
      return;
    }
    case 'unset': {
      const key = parseConfigKey(opts.key ?? '');
      // Removing what is not there is no error (the end state is the one asked for), but it is
      // not reported as a removal either: a typo in the profile's name would go unnoticed.
      const there = isProfileKey(key) ? store.profile(profile)[key] !== undefined : store.hasDefaultProfileSetting();
      // (Nor does it make an empty profile of that name.)
      if (there && isProfileKey(key)) store.unset(profile, key);
      else if (there) store.clearDefaultProfile();
      const where = isProfileKey(key) ? ` ${there ? 'from' : 'in'} profile "${profile}"` : '';
      factory.notice(there ? `Removed ${key}${where}.` : `${key} was not set${where}; nothing to remove.`);
      return;
    }
    case 'list': {
      // The default named only when it is set or there: "default" of a store with no such
      // profile named one that commands would not use (they use the local register).
      const shown = store.hasDefaultProfileSetting() || store.has(store.defaultProfile());
      const lines = shown ? [`default_profile=${store.defaultProfile()}`] : [];
      for (const name of store.names()) {
        for (const [key, value] of Object.entries(store.profile(name))) {
          if (value === undefined) continue;
          const shown = key === 'api_key' && !opts.showSecrets ? maskSecret(value) : value;
          lines.push(`${name}.${key}=${shown}`);
        }
      }
      if (lines.length > 0) await out.write(lines.join('\n') + '\n');
      return;
    }
  }
}
