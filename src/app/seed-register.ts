// `bolag db seed` and first start: a fresh deterministic register in the store.
import type { Store } from '../store/store.js';
import { generateBatches } from '../seed/generate-batches.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import { IMPORT_SETTINGS } from '../store/import-settings.js';

export const DEFAULT_SEED_COUNT = 1_200_000;
export const DEFAULT_SEED = 'bolag';

/**
 * Set while a register is being created and removed once it is whole. Rows are committed as they
 * are loaded and the indexes built after them, so a process stopped meanwhile (Ctrl-C on the
 * local register's first search) leaves companies without their full-text, spatial or SNI
 * entries; the next first start finds this setting and creates the register again.
 */
export const SEEDING_SETTING = 'register.seeding';

/**
 * Set by `bolag db import` on an empty register before it writes anything, and kept when the
 * import fails or is killed before its first row commits: a register an import created is the
 * operator's, and a first start must not fill it with generated companies. Taken back only when
 * the file was refused at its first line (the wrong file: nothing was imported). A seed
 * (`db seed --replace`) makes it a generated register again.
 */
export const IMPORTED_SETTING = 'register.imported';

/**
 * Marks an empty register as imported before an import writes to it; true when this call set the
 * mark. A register with rows needs none (a first start seeds only an empty one), and is not
 * written here: another import holding its write lock would keep this one waiting past the busy
 * timeout, before the import's own wait and its notice. Should another process be writing an
 * empty one (an import, a seed), that process fills or marks it itself.
 */
export async function markImportedIfEmpty(store: Store, source: string): Promise<boolean> {
  if ((await store.companies.lastRow()) > 0 || (await wasImported(store))) return false;
  try {
    await store.setSetting(IMPORTED_SETTING, JSON.stringify({ source, at: new Date().toISOString() }));
    return true;
  } catch (e) {
    if (isStoreUnavailable(e)) return false;
    throw e;
  }
}

/** Takes back a mark set for an import that wrote nothing: its file was refused at its first line. */
export async function unmarkImported(store: Store): Promise<void> {
  if ((await store.companies.lastRow()) === 0) await store.setSetting(IMPORTED_SETTING, null);
}

/** Whether an import has ever been run on this register (so an empty one stays empty). */
export async function wasImported(store: Store): Promise<boolean> {
  return (await store.getSetting(IMPORTED_SETTING)) !== null;
}

export async function seedRegister(
  store: Store,
  opts: { count?: number; seed?: string; onProgress?: (done: number, total: number, phase: 'rows' | 'indexes') => void } = {},
): Promise<number> {
  const count = opts.count ?? DEFAULT_SEED_COUNT;
  const seed = opts.seed ?? DEFAULT_SEED;
  await store.setSetting(SEEDING_SETTING, JSON.stringify({ seed, count }));
  const loaded = store.companies.seedGenerated
    ? await store.companies.seedGenerated(seed, count, opts.onProgress)
    : await store.companies.bulkLoad(generateBatches(seed, count), count, opts.onProgress);
  await store.setSetting(SEEDING_SETTING, null);
  await store.setSetting(IMPORTED_SETTING, null);
  // A generated register holds no source's week, nor an unfinished load of one.
  for (const name of IMPORT_SETTINGS) await store.setSetting(name, null);
  return loaded;
}

/** Whether the register's creation was cut short: it must be created again before it is used. */
export async function seedingCutShort(store: Store): Promise<boolean> {
  return (await store.getSetting(SEEDING_SETTING)) !== null;
}
