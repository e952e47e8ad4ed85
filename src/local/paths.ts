// Where bolag keeps its files: BOLAG_HOME when set, else the platform's data directory.
import { homedir, platform } from 'node:os';
import { join } from 'node:path';

export function bolagHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BOLAG_HOME) return env.BOLAG_HOME;
  const home = homedir();
  switch (platform()) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'bolag');
    case 'win32':
      return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'bolag');
    default:
      return join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'bolag');
  }
}

/** The embedded register that `bolag serve` and the local mode use by default. */
export function registerDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(bolagHome(env), 'register.db');
}

/** Profiles (conf) live beside the register, so BOLAG_HOME isolates everything. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.BOLAG_HOME ? env.BOLAG_HOME : join(bolagHome(env), 'config');
}
