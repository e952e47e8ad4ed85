// mkdir -p, one level at a time. Node 20's recursive mkdir loops for good under /proc (a path
// such as --out /proc/nope hung at full CPU), and its EEXIST named neither the part that was in
// the way nor that it is a file.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A folder that cannot be made: `reason` says why in words, `path` which part. */
export class FolderError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly code?: string,
  ) {
    super(`Cannot make the folder ${path}: ${reason}.`);
    this.name = 'FolderError';
  }
}

/** Makes `path` and every missing folder above it (each new one with `mode`); a folder already there is fine. */
export function makeFolder(path: string, mode?: number): void {
  const missing: string[] = [];
  for (let p = resolve(path); ; ) {
    const found = kindOf(p);
    if (found === 'folder') break;
    if (found === 'other') throw new FolderError(p, 'a file is in the way, not a folder');
    // Missing, or below a file (ENOTDIR): look further up.
    if (found === 'missing') missing.unshift(p);
    const parent = dirname(p);
    if (parent === p) break;
    p = parent;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, mode === undefined ? undefined : { mode });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && kindOf(folder) === 'folder') continue; // made meanwhile by another process
      throw new FolderError(folder, reasonOf(code, e), code);
    }
  }
}

function kindOf(path: string): 'folder' | 'other' | 'missing' | 'below-a-file' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'other';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    if (code === 'ENOTDIR') return 'below-a-file';
    throw new FolderError(path, reasonOf(code, e), code);
  }
}

function reasonOf(code: string | undefined, e: unknown): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'the disk is full';
    case 'ENOENT':
      return 'folders cannot be made there';
    case 'EEXIST':
      return 'a file is in the way, not a folder';
    default:
      return (e as Error).message;
  }
}
