// Tests that run compiled code (the CLI binary, export threads) build first when dist is older
// than the sources. One build at a time across test files (a lock directory).
import { execa } from 'execa';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path));
    else if (entry.name.endsWith('.ts') || entry.name.endsWith('.json')) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

function builtAt(): number {
  try {
    return Math.min(statSync(join(ROOT, 'dist/src/cli/main.js')).mtimeMs, statSync(join(ROOT, 'dist/src/exports/encode-thread.js')).mtimeMs);
  } catch {
    return 0;
  }
}

export async function ensureBuilt(): Promise<void> {
  const lock = join(ROOT, 'node_modules/.cache/bolag-test-build.lock');
  mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (builtAt() < newest(join(ROOT, 'src'))) {
      // tsc still emits when another part of the tree has type errors; the tests then show what works.
      await execa('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: ROOT, reject: false });
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
