// The package version, read once from package.json (for --version and the User-Agent).
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached) return cached;
  // dist/src/cli/version.js sits three levels below the package root; src/cli/version.ts two.
  for (const rel of ['../../../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'bolag' && pkg.version) return (cached = pkg.version);
    } catch {
      // try the next candidate
    }
  }
  return (cached = '0.0.0');
}

export function userAgent(): string {
  return `bolag/${packageVersion()}`;
}
