// The flags of `bolag search` (and the filter flags that `bolag export create` reuses),
// derived from SEARCH_PARAMS / FILTER_PARAMS / OUTPUT_PARAMS of src/core/search-params.ts.
import { FILTER_PARAMS, OUTPUT_PARAMS } from '../../core/search-params.js';
import { COUNTIES } from '../../reference/counties.js';
import { CATEGORIES } from '../../reference/categories.js';
import { MUNICIPALITIES } from '../../reference/municipalities.js';
import { deriveFlags, type ParamFlag } from './derive.js';

/** q is the positional argument of search, not a flag. */
/**
 * Every filter of GET /companies as a flag, q included: the query is typed as words
 * (`bolag search bygg stockholm`) or as --q, as on `export create` (contract §3: every parameter
 * a flag); both at once are refused (query-words.ts).
 */
export function filterFlags(): ParamFlag[] {
  return deriveFlags(FILTER_PARAMS);
}

export function outputFlags(): ParamFlag[] {
  return deriveFlags(OUTPUT_PARAMS);
}

/** What completion offers for the filters whose values are open sets in the schema. */
export function filterCompletionValues(): Record<string, readonly string[]> {
  return {
    county: COUNTIES.map((c) => c.name),
    municipality: MUNICIPALITIES.map((m) => m.name),
    category: CATEGORIES.map((c) => c.slug),
  };
}

/** How the positional query is named in messages. */
export const SEARCH_LABELS: Record<string, string> = { q: 'the query [q]' };
