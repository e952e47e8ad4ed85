// The skips of a claim that leave anything out, their payload fields checked once for both
// stores: a field's name is written into the SQL, so only plain names are let through.
import type { JobSkip } from './store.js';

export function activeSkips(skips: readonly JobSkip[] | undefined): JobSkip[] {
  const active = (skips ?? []).filter((skip) => skip.values.length > 0);
  for (const skip of active) if (!/^[a-z_]+$/.test(skip.field)) throw new Error(`invalid payload field ${skip.field}`);
  return active;
}
