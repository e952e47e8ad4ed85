// A bulk load's or an import's scratch folder beside the database (sorted runs, side tables),
// removed when the work ends. A process killed meanwhile (Ctrl-C while the local register is
// first made, a kill, a crash) cannot remove its own: the folder names its maker, and the next
// one made beside it removes those whose maker is gone, which may hold gigabytes.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isProcessAlive } from './file-lock.js';

export type SideFolderKind = '.seed-' | '.import-indexes-';

const MAKER_FILE = 'maker.pid';
/** A folder without its maker's file is only that young while mkdtemp and the write run. */
const UNNAMED_GRACE_MS = 60_000;

/** Makes a scratch folder beside the database file, after removing abandoned ones of its kind. */
export function makeSideFolder(dbName: string, kind: SideFolderKind): string {
  const dir = dirname(resolve(dbName));
  removeAbandoned(dir, kind);
  const side = mkdtempSync(join(dir, kind));
  writeFileSync(join(side, MAKER_FILE), `${process.pid}\n`);
  return side;
}

function removeAbandoned(dir: string, kind: SideFolderKind): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(kind)) continue;
    const folder = join(dir, name);
    if (isAbandoned(folder)) rmSync(folder, { recursive: true, force: true });
  }
}

function isAbandoned(folder: string): boolean {
  try {
    const pid = Number.parseInt(readFileSync(join(folder, MAKER_FILE), 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isProcessAlive(pid);
  } catch {
    // No maker named: made by an older version, or being made right now.
    try {
      const stat = statSync(folder);
      return stat.isDirectory() && Date.now() - stat.mtimeMs > UNNAMED_GRACE_MS;
    } catch {
      return false;
    }
  }
}
